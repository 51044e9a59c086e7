package dev.partita.core.store;

/**
 * Store batches of bounded size for rewrites that touch a whole container (index rebuilds, expiry recomputation, data
 * deletion): each chunk commits on its own, so such a rewrite is not atomic and its callers make it restartable.
 */
public final class ChunkedWriter {
    /** Entries per committed chunk: large enough to amortise a commit, small enough to bound memory. */
    static final int CHUNK = 1024;
    private static final byte[] NO_VALUE = new byte[0];

    private final Store store;
    private WriteBatch batch = new WriteBatch();

    public ChunkedWriter(Store store) {
        this.store = store;
    }

    public ChunkedWriter put(byte[] key, byte[] value) {
        batch.put(key, value);
        return flushIfFull();
    }

    /** Puts a key whose presence is the fact (an index entry). */
    public ChunkedWriter put(byte[] key) {
        return put(key, NO_VALUE);
    }

    public ChunkedWriter delete(byte[] key) {
        batch.delete(key);
        return flushIfFull();
    }

    /** Deletes every key of {@code [from, to)} as it stands in the store now. */
    public ChunkedWriter deleteRange(byte[] from, byte[] to) {
        try (Cursor cur = store.scan(from, to)) {
            while (cur.next()) {
                delete(cur.key());
            }
        }
        return this;
    }

    private ChunkedWriter flushIfFull() {
        if (batch.size() >= CHUNK) {
            flush();
        }
        return this;
    }

    /** Commits what is staged. */
    public void flush() {
        if (!batch.isEmpty()) {
            store.apply(batch);
            batch = new WriteBatch();
        }
    }
}
