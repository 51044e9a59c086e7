package dev.partita.core.store;

/**
 * Point and range reads over ordered keys: all the engine needs to read items, index entries and the change log.
 *
 * <p>Keys compare as unsigned bytes ({@link Bytes#compare}). Arrays passed in may be reused by the caller once the
 * call returns; arrays handed out are never modified by the store and must not be modified by the caller.
 */
public interface StoreReader {

    /** The value stored under {@code key}, or {@code null}. The caller must not modify the returned array. */
    byte[] get(byte[] key);

    /**
     * Keys in {@code [fromInclusive, toExclusive)} in ascending unsigned-byte order. Close the cursor when done: it
     * pins a consistent view (and, for RocksDB, native memory) until closed or exhausted.
     *
     * <p>A {@code null} bound means unbounded on that side (so a caller need not invent a key above every key); an
     * empty or inverted range yields no entries.
     */
    Cursor scan(byte[] fromInclusive, byte[] toExclusive);

    /**
     * The same entries as {@link #scan scan(fromInclusive, toExclusive)}, in descending unsigned-byte order: the first
     * is the largest key below {@code toExclusive}. For walking index entries backwards ({@code ORDER BY ... DESC})
     * without collecting and reversing a range. Bounds, the empty and inverted ranges and the {@link Cursor} contract
     * are exactly those of {@link #scan}.
     */
    Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive);
}
