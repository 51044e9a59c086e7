package dev.partita.core.item;

import java.util.concurrent.locks.ReentrantLock;

/**
 * What a container needs at run time beyond its catalog entry: the writer lock (one writer per container keeps the
 * LSN order equal to the commit order), the last LSN handed out, and its pending partition key deletes.
 */
public final class ContainerState {
    private final ReentrantLock writeLock = new ReentrantLock();
    private volatile long lsn;
    private volatile PartitionDeletes partitionDeletes;

    public ContainerState(long lastLsn, PartitionDeletes partitionDeletes) {
        this.lsn = lastLsn;
        this.partitionDeletes = partitionDeletes;
    }

    /** The pending partition key deletes, as committed. */
    public PartitionDeletes partitionDeletes() {
        return partitionDeletes;
    }

    /** Publishes the deletes a transaction committed (by the writer, under the lock). */
    void partitionDeletes(PartitionDeletes committed) {
        partitionDeletes = committed;
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
