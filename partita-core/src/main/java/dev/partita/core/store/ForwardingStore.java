package dev.partita.core.store;

/**
 * A store that hands every operation to another one: the base for wrappers that change one operation (a read that
 * waits like a cold disk in a benchmark, a read that fails or blocks at a chosen moment in a test). It does not vouch
 * that reads never block ({@link Store#readsNeverBlock} stays false, so {@link Store#getWithoutWaiting} always says it
 * would wait) unless a wrapper says so: the point of a wrapper is usually to add something to a read.
 */
public abstract class ForwardingStore implements Store {
    protected final Store inner;

    protected ForwardingStore(Store inner) {
        this.inner = inner;
    }

    @Override
    public byte[] get(byte[] key) {
        return inner.get(key);
    }

    @Override
    public Cursor scan(byte[] fromInclusive, byte[] toExclusive) {
        return inner.scan(fromInclusive, toExclusive);
    }

    @Override
    public Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return inner.scanDescending(fromInclusive, toExclusive);
    }

    @Override
    public void apply(WriteBatch batch) {
        inner.apply(batch);
    }

    @Override
    public Snapshot snapshot() {
        return inner.snapshot();
    }

    @Override
    public void close() {
        inner.close();
    }
}
