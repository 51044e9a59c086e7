package dev.partita.core.item;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Store;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link WriteTxn} with the writer of its physical partition held: the shared writer lock, then the partition's
 * own. Opened on a logical partition, committed at most once, and closed always: closing a transaction that did not
 * commit gives it up (nothing it staged is written; the LSNs it took go back or stay a gap) and releases the locks.
 * The partition is routed after the shared lock is taken, so no split moves it while the transaction is open.
 */
final class HeldTxn implements AutoCloseable {
    private final ContainerState state;
    private final ContainerInfo c;
    private final String rangeId;
    private final ReentrantLock writer;
    private final WriteTxn txn;
    private boolean committed;

    private HeldTxn(ContainerState state, ContainerInfo c, String rangeId, ReentrantLock writer, WriteTxn txn) {
        this.state = state;
        this.c = c;
        this.rangeId = rangeId;
        this.writer = writer;
        this.txn = txn;
    }

    static HeldTxn open(Store store, Supplier<ContainerInfo> container, ContainerState state, Limits limits,
            PatchCondition patchCondition, long nowSeconds, String epk) {
        state.anyWriter().lock();
        try {
            ContainerInfo c = container.get();
            String rangeId = c.partitions().route(epk).id();
            ReentrantLock writer = state.partitionWriter(rangeId);
            writer.lock();
            try {
                return new HeldTxn(state, c, rangeId, writer,
                        new WriteTxn(store, c, state, limits, patchCondition, nowSeconds));
            } catch (RuntimeException | Error e) {
                writer.unlock();
                throw e;
            }
        } catch (RuntimeException | Error e) {
            state.anyWriter().unlock();
            throw e;
        }
    }

    /**
     * {@link Items#ifWriterFree}: {@code work} with the partition's writer held, or null when it is not free. A try
     * would barge ahead of threads queued for a lock; it gives up instead, so that a split waiting for every writer
     * and the writes queued for the partition are not overtaken again and again.
     */
    static <T> T ifWriterFree(Supplier<ContainerInfo> container, ContainerState state, String epk, Supplier<T> work) {
        if (state.allWritersAwaited() || !state.anyWriter().tryLock()) {
            return null;
        }
        try {
            ReentrantLock writer = state.partitionWriter(container.get().partitions().route(epk).id());
            if (writer.hasQueuedThreads() || !writer.tryLock()) {
                return null;
            }
            try {
                return work.get();
            } finally {
                writer.unlock();
            }
        } finally {
            state.anyWriter().unlock();
        }
    }

    WriteTxn txn() {
        return txn;
    }

    /** Whether logical partition {@code epk} lies in the physical partition this transaction holds. */
    boolean holds(String epk) {
        return c.partitions().route(epk).id().equals(rangeId);
    }

    void commit() {
        txn.commit();
        committed = true;
    }

    @Override
    public void close() {
        try {
            if (!committed) {
                // whatever was thrown: an LSN left claimed would hold the change feed back for good
                txn.abandon();
            }
        } finally {
            writer.unlock();
            state.anyWriter().unlock();
        }
    }
}
