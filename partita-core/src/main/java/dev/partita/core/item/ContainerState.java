package dev.partita.core.item;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a container needs at run time beyond its catalog entry: its writers, its LSNs and its pending partition key
 * deletes.
 *
 * <p>Writers: one per physical partition (by range id), so writes to different partitions run in parallel and each
 * partition's writes keep their LSN order. Every writer also holds the container's shared writer lock, which engine
 * operations that must not interleave with any write (splits, policy replace, index rebuilds, container delete) take
 * exclusively: while a writer runs, the partition map cannot change under it.
 */
public final class ContainerState {
    private final ReentrantReadWriteLock writers = new ReentrantReadWriteLock();
    private final Map<String, ReentrantLock> partitionWriters = new ConcurrentHashMap<>();
    private final LsnSequence lsns;
    private volatile PartitionDeletes partitionDeletes;

    public ContainerState(LsnSequence lsns, PartitionDeletes partitionDeletes) {
        this.lsns = lsns;
        this.partitionDeletes = partitionDeletes;
    }

    /** The pending partition key deletes, as committed. */
    public PartitionDeletes partitionDeletes() {
        return partitionDeletes;
    }

    /**
     * Publishes the deletes a transaction committed, by EPK: a cutoff LSN, or 0 for a delete forgotten. Writers of
     * other partitions publish theirs concurrently, so each applies its own changes to the current value.
     */
    synchronized void publishDeletes(Map<String, Long> changed) {
        PartitionDeletes next = partitionDeletes;
        for (Map.Entry<String, Long> e : changed.entrySet()) {
            next = e.getValue() == 0 ? next.without(e.getKey()) : next.with(e.getKey(), e.getValue());
        }
        partitionDeletes = next;
    }

    /** Taken exclusively by engine operations that must not interleave with any write of the container. */
    public Lock allWriters() {
        return writers.writeLock();
    }

    /** Whether an engine operation waits for {@link #allWriters()}: a write that may not wait then leaves it first. */
    boolean allWritersAwaited() {
        return writers.hasQueuedThreads();
    }

    /** Held (shared) by every partition's writer, around its partition's own lock. */
    Lock anyWriter() {
        return writers.readLock();
    }

    /** The writer lock of one physical partition; take it only while holding {@link #anyWriter()}. */
    ReentrantLock partitionWriter(String rangeId) {
        return partitionWriters.computeIfAbsent(rangeId, id -> new ReentrantLock());
    }

    public LsnSequence lsns() {
        return lsns;
    }

    /** The last LSN handed out. */
    public long lsn() {
        return lsns.last();
    }
}
