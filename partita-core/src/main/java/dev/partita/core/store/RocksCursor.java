package dev.partita.core.store;

import java.util.Set;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A RocksDB iterator bounded above by {@code iterate_upper_bound}, so RocksDB stops at the bound instead of reading
 * (and skipping tombstones) past it. A descending cursor is bounded below by {@code iterate_lower_bound} too, for the
 * same reason in the other direction, and walks from {@code seekToLast()} (the last key below the upper bound) with
 * {@code prev()}. Frees its iterator as soon as it is exhausted, so a caller that reads to the end holds nothing even
 * before it closes.
 */
final class RocksCursor implements Cursor {
    private final Set<AutoCloseable> siblings;
    private final NativeRef parent;
    private final byte[] from;
    private final boolean descending;
    private final Slice upperBound;
    private final Slice lowerBound; // only for descending cursors: an ascending one seeks to its lower bound
    private final ReadOptions readOptions;
    private final RocksIterator iterator;
    private final NativeRef ref = new NativeRef("the cursor", this::free);
    private boolean started;
    private boolean exhausted;
    private byte[] key;
    private byte[] value;

    /** Over the store ({@code snapshot == null}) or a snapshot; {@code parent} is the store's or snapshot's ref. */
    static Cursor open(RocksStore store, org.rocksdb.Snapshot snapshot, NativeRef parent, Set<AutoCloseable> siblings,
            byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        parent.enter(); // handed to the cursor, given back when it is freed
        if (fromInclusive != null && toExclusive != null && Bytes.compare(fromInclusive, toExclusive) >= 0) {
            parent.exit();
            return new RocksCursor(null, null, null, null, null, null, descending).exhaust();
        }
        RocksCursor cursor;
        try {
            cursor = new RocksCursor(store, snapshot, parent, siblings, fromInclusive, toExclusive, descending);
        } catch (RuntimeException e) {
            parent.exit();
            throw e;
        }
        return RocksStore.adopt(cursor, siblings, parent);
    }

    private RocksCursor(RocksStore store, org.rocksdb.Snapshot snapshot, NativeRef parent,
            Set<AutoCloseable> siblings, byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        this.siblings = siblings;
        this.parent = parent;
        this.descending = descending;
        this.from = fromInclusive == null ? null : fromInclusive.clone();
        if (store == null) {
            upperBound = null;
            lowerBound = null;
            readOptions = null;
            iterator = null;
            return;
        }
        // The Slices copy the bounds, so the caller may reuse its arrays once scan returns.
        upperBound = toExclusive == null ? null : new Slice(toExclusive);
        lowerBound = descending && fromInclusive != null ? new Slice(fromInclusive) : null;
        readOptions = new ReadOptions().setSnapshot(snapshot);
        if (upperBound != null) {
            readOptions.setIterateUpperBound(upperBound);
        }
        if (lowerBound != null) {
            readOptions.setIterateLowerBound(lowerBound);
        }
        iterator = store.db.newIterator(readOptions);
    }

    private RocksCursor exhaust() {
        exhausted = true;
        started = true;
        ref.close();
        return this;
    }

    @Override
    public boolean next() {
        if (exhausted) {
            return false;
        }
        ref.enter();
        try {
            if (descending) {
                if (started) {
                    iterator.prev();
                } else {
                    iterator.seekToLast(); // with an upper bound: the last key below it
                }
            } else if (started) {
                iterator.next();
            } else if (from == null) {
                iterator.seekToFirst();
            } else {
                iterator.seek(from);
            }
            started = true;
            if (iterator.isValid()) {
                key = iterator.key();
                value = iterator.value();
                return true;
            }
            iterator.status();
            exhausted = true;
            key = null;
            value = null;
        } catch (RocksDBException e) {
            throw new StoreException("cannot scan the RocksDB store: " + e.getMessage(), e);
        } finally {
            ref.exit();
        }
        close();
        return false;
    }

    @Override
    public byte[] key() {
        return current(key);
    }

    @Override
    public byte[] value() {
        return current(value);
    }

    private static byte[] current(byte[] b) {
        if (b == null) {
            throw new IllegalStateException("no current entry: call next() first and only while it returns true");
        }
        return b;
    }

    @Override
    public void close() {
        ref.close();
    }

    private void free() {
        if (iterator == null) {
            return; // the empty cursor owns nothing
        }
        iterator.close();
        readOptions.close();
        if (upperBound != null) {
            upperBound.close();
        }
        if (lowerBound != null) {
            lowerBound.close();
        }
        siblings.remove(this);
        parent.exit();
    }
}
