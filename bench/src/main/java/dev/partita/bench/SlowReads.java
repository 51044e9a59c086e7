package dev.partita.bench;

import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.WriteBatch;
import java.util.concurrent.locks.LockSupport;

/**
 * A store whose point reads wait a set time first, like reads from a cold disk (none until {@link #waitMicros} is
 * set, so that preloading is quick); everything else is the store's.
 */
final class SlowReads implements Store {
    private final Store inner;
    private volatile long waitNanos;

    SlowReads(Store inner) {
        this.inner = inner;
    }

    void waitMicros(int micros) {
        waitNanos = micros * 1_000L;
    }

    @Override
    public byte[] get(byte[] key) {
        long wait = waitNanos;
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
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
