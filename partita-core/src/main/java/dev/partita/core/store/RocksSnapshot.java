package dev.partita.core.store;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;

/** A RocksDB snapshot plus the read options that point at it; holds a reference on the store until freed. */
final class RocksSnapshot implements Snapshot {
    private final RocksStore store;
    private final org.rocksdb.Snapshot snapshot;
    private final ReadOptions readOptions;
    private final NativeRef ref = new NativeRef("the snapshot", this::free);
    private final Set<AutoCloseable> cursors = ConcurrentHashMap.newKeySet();

    RocksSnapshot(RocksStore store) {
        this.store = store;
        this.snapshot = store.db.getSnapshot();
        this.readOptions = new ReadOptions().setSnapshot(snapshot);
    }

    @Override
    public byte[] get(byte[] key) {
        ref.enter();
        try {
            return store.db.get(readOptions, key);
        } catch (RocksDBException e) {
            throw store.failure("read", e);
        } finally {
            ref.exit();
        }
    }

    @Override
    public Cursor scan(byte[] fromInclusive, byte[] toExclusive) {
        return RocksCursor.open(store, snapshot, ref, cursors, fromInclusive, toExclusive, false);
    }

    @Override
    public Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return RocksCursor.open(store, snapshot, ref, cursors, fromInclusive, toExclusive, true);
    }

    @Override
    public void close() {
        if (ref.close()) {
            for (AutoCloseable cursor : cursors) {
                RocksStore.closeQuietly(cursor);
            }
        }
    }

    private void free() {
        store.db.releaseSnapshot(snapshot);
        readOptions.close();
        store.children.remove(this);
        store.ref.exit();
    }
}
