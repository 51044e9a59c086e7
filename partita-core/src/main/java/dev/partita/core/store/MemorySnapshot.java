package dev.partita.core.store;

import java.util.concurrent.atomic.AtomicBoolean;

/** A sequence number into a {@link MemoryStore}: every read resolves each key's version chain at that sequence. */
final class MemorySnapshot implements Snapshot {
    private final MemoryStore store;
    private final long seq;
    private final AtomicBoolean closed = new AtomicBoolean();

    MemorySnapshot(MemoryStore store, long seq) {
        this.store = store;
        this.seq = seq;
    }

    @Override
    public byte[] get(byte[] key) {
        checkOpen();
        return store.get(key, seq);
    }

    @Override
    public Cursor scan(byte[] fromInclusive, byte[] toExclusive) {
        return scan(fromInclusive, toExclusive, false, null);
    }

    @Override
    public Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return scan(fromInclusive, toExclusive, true, null);
    }

    /** A cursor that closes {@code owned} when it is closed or exhausted (for scans on the store itself). */
    Cursor scan(byte[] fromInclusive, byte[] toExclusive, boolean descending, Snapshot owned) {
        try {
            checkOpen();
            return new MemoryCursor(this, store.entries(fromInclusive, toExclusive, descending), owned);
        } catch (RuntimeException e) {
            if (owned != null) {
                owned.close();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            store.release(seq);
        }
    }

    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the snapshot is closed");
        }
        store.checkOpen();
    }

    private static final class MemoryCursor implements Cursor {
        private final MemorySnapshot snapshot;
        private final KeyRange entries;
        private Snapshot owned;
        private byte[] key;
        private byte[] value;

        MemoryCursor(MemorySnapshot snapshot, KeyRange entries, Snapshot owned) {
            this.snapshot = snapshot;
            this.entries = entries;
            this.owned = owned;
        }

        @Override
        public boolean next() {
            boolean checked = false;
            while (entries.next()) {
                if (!checked) {
                    // Once the snapshot is closed its versions may be pruned: fail rather than return a mixed state.
                    snapshot.checkOpen();
                    checked = true;
                }
                byte[] v = entries.slot().valueAt(snapshot.seq);
                if (v != null) {
                    key = entries.key();
                    value = v;
                    return true;
                }
            }
            key = null;
            value = null;
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

        private byte[] current(byte[] b) {
            if (b == null) {
                throw new IllegalStateException("no current entry: call next() first and only while it returns true");
            }
            return b;
        }

        @Override
        public void close() {
            if (owned != null) {
                owned.close();
                owned = null;
            }
        }
    }
}
