package dev.partita.core.item;

import java.util.concurrent.locks.ReentrantLock;

/**
 * What a container needs at run time beyond its catalog entry: the writer lock (one writer per container keeps the
 * LSN order equal to the commit order) and the last LSN handed out.
 */
public final class ContainerState {
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile long lsn;

    public ContainerState(long lastLsn) {
        this.lsn = lastLsn;
    }

    /** Held by every writer of the container, and by engine operations that must not interleave with writes. */
    public ReentrantLock writeLock() {
        return writeLock;
    }

    public long lsn() {
        return lsn;
    }

    long nextLsn() {
        return ++lsn;
    }

    /** Gives back LSNs handed out to a transaction that did not commit. */
    void resetTo(long lastCommitted) {
        lsn = lastCommitted;
    }
}
