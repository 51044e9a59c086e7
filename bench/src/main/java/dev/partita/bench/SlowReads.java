package dev.partita.bench;

import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.Store;
import java.util.concurrent.locks.LockSupport;

/**
 * A store whose point reads wait a set time first, like reads from a cold disk (none until {@link #waitMicros} is
 * set, so that preloading is quick); everything else is the store's.
 */
final class SlowReads extends ForwardingStore {
    private volatile long waitNanos;

    SlowReads(Store inner) {
        super(inner);
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
}
