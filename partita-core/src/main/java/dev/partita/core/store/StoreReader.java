package dev.partita.core.store;

/** Point and range reads over ordered keys. */
public interface StoreReader {

    /** The value stored under {@code key}, or {@code null}. The caller must not modify the returned array. */
    byte[] get(byte[] key);

    /** Keys in {@code [fromInclusive, toExclusive)} in ascending unsigned-byte order. Close the cursor when done. */
    Cursor scan(byte[] fromInclusive, byte[] toExclusive);
}
