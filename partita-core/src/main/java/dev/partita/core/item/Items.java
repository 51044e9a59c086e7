package dev.partita.core.item;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.request.Conditions;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The item operations of one container, on partition keys already routed ({@link KeyRoute}): point reads and writes,
 * patch, transactional batch, bulk, and the container-wide rewrites (TTL purge, expiry and index rebuilds). Prices,
 * admission and authorization are the caller's (the engine's container handle); this class keeps the data right.
 *
 * <p>Every write runs under the container's writer lock as one {@link WriteTxn}, which commits one store batch holding
 * the item, the entries kept beside it and the change-log record, so a crash never leaves half of it.
 */
public final class Items {
    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Supplier<ContainerInfo> container;
    private final ContainerState state;
    private final PatchCondition patchCondition;

    /**
     * @param container supplies the container's current catalog entry (it changes on replace and split) and throws
     *                  404 once the container is gone
     */
    public Items(Store store, Clock clock, Limits limits, Supplier<ContainerInfo> container, ContainerState state,
            PatchCondition patchCondition) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        this.container = container;
        this.state = state;
        this.patchCondition = patchCondition;
    }

    /** The container's current catalog entry. */
    public ContainerInfo container() {
        return container.get();
    }

    /** A request body parsed as an item (400 when it is not a JSON object). */
    public static ObjectNode parseItem(byte[] body) {
        return Json.parseObject(body, "item");
    }

    // ---- point operations

    public ItemResult read(KeyRoute at, String id, Conditions conditions) {
        ContainerInfo c = container.get();
        byte[] raw = store.get(StoreKeys.item(c.containerId(), at.epk(), id));
        StoredItem item = raw == null ? null : StoredItem.wrap(raw);
        if (item == null || !item.isLiveAt(nowSeconds())) {
            throw ServiceException.notFound("The item does not exist.");
        }
        String etag = Etags.of(c.containerId(), item.lsn());
        if (conditions.ifNoneMatch() != null && etagMatches(conditions.ifNoneMatch(), etag)) {
            return new ItemResult(304, null, etag, state.lsn(), at.range().id(), Work.notModified());
        }
        return new ItemResult(200, item, etag, state.lsn(), at.range().id(), Work.read(item.jsonLength()));
    }

    /** @param body the bytes {@code doc} was parsed from: stored as they are when they carry no system property */
    public ItemResult create(KeyRoute at, ObjectNode doc, byte[] body) {
        return inTransaction(txn -> txn.create(at, doc, body));
    }

    public ItemResult upsert(KeyRoute at, ObjectNode doc, byte[] body, Conditions conditions) {
        return inTransaction(txn -> txn.upsert(at, doc, body, conditions));
    }

    public ItemResult replace(KeyRoute at, String id, byte[] body, Conditions conditions) {
        ObjectNode doc = parseItem(body);
        return inTransaction(txn -> txn.replace(at, id, doc, body, conditions));
    }

    public ItemResult delete(KeyRoute at, String id, Conditions conditions) {
        return inTransaction(txn -> txn.delete(at, id, conditions));
    }

    public ItemResult patch(KeyRoute at, String id, byte[] body, Conditions conditions) {
        Patch patch = Patch.parse(Json.parse(body, "patch body"), limits.maxPatchOperations());
        return inTransaction(txn -> txn.patch(at, id, patch, conditions));
    }

    // ---- batch and bulk

    /**
     * Runs a transactional batch: every operation against one logical partition, all applied or none. A failing
     * operation keeps its status; all others get 424.
     */
    public BatchResult batch(KeyRoute at, byte[] body) {
        List<BatchOperation> ops = BatchOperation.parseAll(Json.parse(body, "batch body"), false);
        if (ops.size() > limits.maxBatchOperations()) {
            throw ServiceException.badRequest("A transactional batch may carry at most " + limits.maxBatchOperations()
                    + " operations; this one has " + ops.size() + ".");
        }
        if (body.length > limits.maxBatchBytes()) {
            throw ServiceException.tooLarge("A transactional batch may be at most " + limits.maxBatchBytes()
                    + " bytes.");
        }
        try {
            return inTransaction(txn -> {
                List<BatchResult.OpResult> results = new ArrayList<>(ops.size());
                for (int i = 0; i < ops.size(); i++) {
                    try {
                        results.add(BatchResult.OpResult.of(ops.get(i), txn.execute(at, ops.get(i))));
                    } catch (ServiceException e) {
                        throw new BatchFailed(BatchResult.failed(ops, i, e));
                    }
                }
                return new BatchResult(results, state.lsn(), txn.rangeId());
            });
        } catch (BatchFailed failed) {
            return failed.result;
        }
    }

    /** Unwinds a transactional batch at its first failing operation, so that nothing it staged is committed. */
    private static final class BatchFailed extends RuntimeException {
        final transient BatchResult result;

        BatchFailed(BatchResult result) {
            super(null, null, false, false);
            this.result = result;
        }
    }

    /**
     * Runs bulk operations, each in its own logical partition (its {@code partitionKey} field) and committed on its
     * own, asking {@code gate} before each whether it may run; failures are reported per operation.
     */
    public BatchResult bulk(byte[] body, BulkGate gate) {
        List<BatchOperation> ops = BatchOperation.parseAll(Json.parse(body, "bulk body"), true);
        List<BatchResult.OpResult> results = new ArrayList<>(ops.size());
        String rangeId = null;
        ServiceException throttled = null;
        for (BatchOperation op : ops) {
            KeyRoute at;
            try {
                ContainerInfo c = container.get();
                at = KeyRoute.of(c.partitionKey(), c.partitions(), op.partitionKey(), limits);
            } catch (ServiceException e) {
                results.add(BatchResult.OpResult.error(op, e));
                continue;
            }
            ServiceException refused = throttled != null ? throttled : gate.refusal(at);
            if (refused != null) {
                // once a partition's budget is spent, the rest of the request is throttled too
                throttled = refused.status() == 429 ? refused : throttled;
                results.add(BatchResult.OpResult.error(op, refused));
                continue;
            }
            BatchResult.OpResult result;
            try {
                ItemResult r = inTransaction(txn -> txn.execute(at, op));
                rangeId = r.rangeId();
                result = BatchResult.OpResult.of(op, r);
            } catch (ServiceException e) {
                result = BatchResult.OpResult.error(op, e);
            }
            results.add(gate.ran(at, result));
        }
        return new BatchResult(results, state.lsn(), rangeId);
    }

    // ---- server-side scripts

    /**
     * Runs a script's operations on one logical partition as one transaction: {@code work} returning commits all it
     * staged; throwing (the script threw, timed out or ran out of budget) writes nothing.
     */
    public <T> T inPartitionTransaction(KeyRoute at, Function<PartitionTxn, T> work) {
        return inTransaction(txn -> work.apply(new PartitionTxn(txn, at)));
    }

    // ---- container-wide upkeep

    /** Purges the items whose TTL fell due before {@code nowSeconds}; returns how many. The TTL sweep calls this. */
    public int purgeExpired(long nowSeconds) {
        int purged = 0;
        for (String[] due : Expiry.due(store, container.get(), nowSeconds)) {
            if (inTransaction(txn -> txn.purgeExpired(due[0], due[1], nowSeconds))) {
                purged++;
            }
        }
        return purged;
    }

    /** Re-derives every item's expiry after the container's default TTL changed. */
    public void recomputeExpiry() {
        underWriterLock(() -> Expiry.recompute(store, container.get(), limits));
    }

    /** Rebuilds the index after the indexing policy changed. */
    public void reindex() {
        underWriterLock(() -> Reindexer.rebuild(store, container.get()));
    }

    /** Rebuilds the index if its entries are not complete for the current policy; returns whether it did. */
    public boolean reindexIfStale() {
        boolean[] rebuilt = new boolean[1];
        underWriterLock(() -> {
            ContainerInfo c = container.get();
            if (Reindexer.isStale(store, c)) {
                Reindexer.rebuild(store, c);
                rebuilt[0] = true;
            }
        });
        return rebuilt[0];
    }

    // ---- the writer

    /**
     * Runs {@code work} as the container's one writer and commits what it staged; on failure nothing is written and
     * the LSNs it took are given back.
     */
    private <T> T inTransaction(Function<WriteTxn, T> work) {
        state.writeLock().lock();
        long startLsn = state.lsn();
        try {
            WriteTxn txn = new WriteTxn(store, container.get(), state, limits, patchCondition, nowSeconds());
            T result = work.apply(txn);
            txn.commit();
            return result;
        } catch (RuntimeException e) {
            state.resetTo(startLsn);
            throw e;
        } finally {
            state.writeLock().unlock();
        }
    }

    private void underWriterLock(Runnable work) {
        state.writeLock().lock();
        try {
            work.run();
        } finally {
            state.writeLock().unlock();
        }
    }

    private long nowSeconds() {
        return clock.millis() / 1000;
    }

    static boolean etagMatches(String condition, String etag) {
        return "*".equals(condition.trim()) || condition.trim().equals(etag);
    }
}
