package dev.partita.core.item;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.Etags;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.request.Conditions;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Lookup;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The item operations of one container, on partition keys already routed ({@link KeyRoute}): point reads and writes,
 * patch, transactional batch, bulk, the delete of a partition key's items, and the container-wide rewrites (TTL purge,
 * removal of deleted partitions' items, expiry and index rebuilds). Prices, admission and authorization are the
 * caller's (the engine's container handle); this class keeps the data right.
 *
 * <p>Every write runs as one {@link WriteTxn} by the writer of its physical partition (writes to different physical
 * partitions run in parallel, each partition's in LSN order), which commits one store batch holding the item, the
 * entries kept beside it and the change-log record, so a crash never leaves half of it. Container-wide rewrites run
 * with every partition's writer held.
 */
public final class Items {
    /** How many ids of a deleted partition's items one scan collects before removing them. */
    private static final int REMOVAL_CHUNK = 256;

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

    /** What the container stores, totalled from its logical partitions' size records: cheap, it reads no item. */
    public PartitionSizes.Total stored() {
        ContainerInfo c = container.get();
        List<PhysicalPartition> parts = c.partitions().partitions();
        // the physical partitions tile the EPK space in order: their outer bounds span the container
        return PartitionSizes.total(store, c.containerId(), parts.get(0).minInclusive(),
                parts.get(parts.size() - 1).maxExclusive());
    }

    /** A request body parsed as an item (400 when it is not a JSON object). */
    public static ObjectNode parseItem(byte[] body) {
        return Json.parseObject(body, "item");
    }

    // ---- point operations

    /** The container's LSN now: what a session token of a refused item operation names. */
    public long lsn() {
        return state.lsn();
    }

    public ItemResult read(KeyRoute at, String id, Conditions conditions) {
        ContainerInfo c = container.get();
        PartitionDeletes deletes = state.partitionDeletes();
        return answer(c, deletes, at, conditions, store.get(StoreKeys.item(c.containerId(), at.epk(), id)));
    }

    /**
     * {@link #read} when the store has the item's key at hand in memory ({@link Store#getWithoutWaiting}), else null:
     * the read's answer, given when called (the result, or the 404 it throws), so that the caller admits the request
     * before it; nothing is spent on a null, and the caller then calls {@link #read} where waiting is allowed.
     */
    public Supplier<ItemResult> readWithoutWaiting(KeyRoute at, String id, Conditions conditions) {
        ContainerInfo c = container.get();
        PartitionDeletes deletes = state.partitionDeletes();
        Lookup found = store.getWithoutWaiting(StoreKeys.item(c.containerId(), at.epk(), id));
        return found.wouldWait() ? null : () -> answer(c, deletes, at, conditions, found.value());
    }

    /**
     * The id of the live item of logical partition {@code at} whose rid has the document sequence {@code sequence},
     * or null: the partition's items are read in key order, each by its stored header only.
     */
    public String idOfRidSequence(KeyRoute at, long sequence) {
        ContainerInfo c = container.get();
        PartitionDeletes deletes = state.partitionDeletes();
        byte[][] range = StoreKeys.logicalPartition(c.containerId(), at.epk());
        try (Cursor cur = store.scan(range[0], range[1])) {
            while (cur.next()) {
                StoredItem item = StoredItem.wrap(cur.value());
                if (item.ridSequence() == sequence && readable(item, at, deletes)) {
                    return StoreKeys.itemId(cur.key());
                }
            }
        }
        return null;
    }

    /** The {@code _rid} of the item {@code id} as reads see it now, or null when there is none. */
    public String ridOf(KeyRoute at, String id) {
        ContainerInfo c = container.get();
        byte[] raw = store.get(StoreKeys.item(c.containerId(), at.epk(), id));
        StoredItem item = raw == null ? null : StoredItem.wrap(raw);
        if (item == null || !readable(item, at, state.partitionDeletes())) {
            return null;
        }
        return ResourceIds.encode(ResourceIds.document(ResourceIds.tryDecode(c.rid()), item.ridSequence()));
    }

    /** Whether reads see the stored version {@code item} now: not expired, not gone with a delete of its partition. */
    private boolean readable(StoredItem item, KeyRoute at, PartitionDeletes deletes) {
        return item.isLiveAt(nowSeconds()) && !deletes.hides(at.epk(), item);
    }

    /** A point read's answer from the stored bytes of its item ({@code raw}: null for none). */
    private ItemResult answer(ContainerInfo c, PartitionDeletes deletes, KeyRoute at, Conditions conditions,
            byte[] raw) {
        StoredItem item = raw == null ? null : StoredItem.wrap(raw);
        if (item == null || !readable(item, at, deletes)) {
            throw ServiceException.itemNotFound();
        }
        String etag = Etags.of(c.containerId(), item.lsn());
        if (conditions.ifNoneMatch() != null && Etags.matches(conditions.ifNoneMatch(), etag)) {
            return new ItemResult(304, null, etag, state.lsn(), at.range().id(), Work.notModified());
        }
        return new ItemResult(200, item, etag, state.lsn(), at.range().id(), Work.read(item.jsonLength()));
    }

    /** @param body the bytes {@code doc} was parsed from: stored as they are when they carry no system property */
    public ItemResult create(KeyRoute at, ObjectNode doc, byte[] body) {
        return inTransaction(at.epk(), txn -> txn.create(at, doc, body));
    }

    public ItemResult upsert(KeyRoute at, ObjectNode doc, byte[] body, Conditions conditions) {
        return inTransaction(at.epk(), txn -> txn.upsert(at, doc, body, conditions));
    }

    public ItemResult replace(KeyRoute at, String id, byte[] body, Conditions conditions) {
        ObjectNode doc = parseItem(body);
        return inTransaction(at.epk(), txn -> txn.replace(at, id, doc, body, conditions));
    }

    public ItemResult delete(KeyRoute at, String id, Conditions conditions) {
        return inTransaction(at.epk(), txn -> txn.delete(at, id, conditions));
    }

    public ItemResult patch(KeyRoute at, String id, byte[] body, Conditions conditions) {
        Patch patch = Patch.parse(Json.parse(body, "patch body"), limits.maxPatchOperations());
        return inTransaction(at.epk(), txn -> txn.patch(at, id, patch, conditions));
    }

    /**
     * Deletes every item of the routed logical partition: gone for reads, queries and the change feed at once, removed
     * in the background ({@link #removeDeletedItems}). Returns 200 with the request's LSN.
     */
    public ItemResult deletePartition(KeyRoute at) {
        return inTransaction(at.epk(), txn -> txn.deletePartition(at));
    }

    // ---- batch and bulk

    /**
     * Runs a transactional batch: every operation against one logical partition, all applied or none. A failing
     * operation keeps its status; all others get 424. A batch whose results would not fit in one response
     * ({@code maxResponseBytes}) fails too: 413 from the operation that does not fit on.
     */
    public BatchResult batch(KeyRoute at, byte[] body) {
        List<BatchOperation> ops = BatchBody.parse(body, "batch body", false);
        if (ops.size() > limits.maxBatchOperations()) {
            throw ServiceException.badRequest("A transactional batch may carry at most " + limits.maxBatchOperations()
                    + " operations; this one has " + ops.size() + ".");
        }
        if (body.length > limits.maxBatchBytes()) {
            throw ServiceException.tooLarge();
        }
        for (BatchOperation op : ops) {
            if (op.partitionKey() != null && !op.partitionKey().equals(at.key())) {
                throw ServiceException.badRequest("One or more operations within the batch request have a different"
                        + " partition key value than the request.");
            }
        }
        try {
            return inTransaction(at.epk(), txn -> {
                List<BatchResult.OpResult> results = new ArrayList<>(ops.size());
                long responseBytes = 0;
                for (int i = 0; i < ops.size(); i++) {
                    BatchResult.OpResult r;
                    try {
                        r = BatchResult.OpResult.of(ops.get(i), txn.execute(at, ops.get(i)));
                    } catch (ServiceException e) {
                        throw new BatchFailed(BatchResult.failed(ops, i, e, state.lsn(), txn.rangeId()));
                    }
                    responseBytes += r.responseBodyBytes();
                    if (responseBytes > limits.maxResponseBytes()) {
                        throw new BatchFailed(BatchResult.responseTooLarge(ops, i, limits.maxResponseBytes(),
                                state.lsn(), txn.rangeId()));
                    }
                    results.add(r);
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
     * Runs bulk operations, each in its own logical partition (its {@code partitionKey} field), asking {@code gate}
     * before each whether it may run; failures are reported per operation. Bulk is not atomic: an operation that
     * fails takes back only its own writes. The operations that run in a row on one physical partition commit as one
     * store batch (one write of the LSN record and of each touched size record, not one per operation), and nothing
     * is reported before its batch committed; a request that moves to another partition commits the open batch first.
     * Unless {@code continueOnError} ({@code x-ms-cosmos-batch-continue-on-error}), the operations after the first
     * that failed are not run and answer 424.
     */
    public BatchResult bulk(byte[] body, boolean continueOnError, BulkGate gate) {
        List<BatchOperation> ops = BatchBody.parse(body, "bulk body", true);
        List<BatchResult.OpResult> results = new ArrayList<>(ops.size());
        String rangeId = null;
        ServiceException throttled = null;
        HeldTxn open = null;
        try {
            for (BatchOperation op : ops) {
                if (!continueOnError && !results.isEmpty() && stops(results.get(results.size() - 1))) {
                    results.add(BatchResult.notRun(op));
                    continue;
                }
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
                if (open != null && !open.holds(at.epk())) {
                    open.commit();
                    open.close();
                    open = null;
                }
                if (open == null) {
                    open = HeldTxn.open(store, container, state, limits, patchCondition, nowSeconds(), at.epk());
                }
                BatchResult.OpResult result;
                open.txn().savepoint();
                try {
                    ItemResult r = open.txn().execute(at, op);
                    rangeId = r.rangeId();
                    result = BatchResult.OpResult.of(op, r);
                } catch (ServiceException e) {
                    open.txn().rollback();
                    result = BatchResult.OpResult.error(op, e);
                }
                results.add(gate.ran(at, result));
            }
            if (open != null) {
                open.commit();
            }
        } finally {
            if (open != null) {
                open.close();
            }
        }
        return new BatchResult(results, state.lsn(), rangeId);
    }

    /**
     * Whether a bulk operation's result stops the rest when the request does not continue on errors: a failure, or a
     * 424 after one; a 429 does not, the rest are throttled too so that the SDK retries them all.
     */
    private static boolean stops(BatchResult.OpResult r) {
        return !r.isSuccess() && r.status() != 429;
    }

    // ---- server-side scripts

    /**
     * Runs a script's operations on one logical partition as one transaction: {@code work} returning commits all it
     * staged; throwing (the script threw, timed out or ran out of budget) writes nothing.
     */
    public <T> T inPartitionTransaction(KeyRoute at, Function<PartitionTxn, T> work) {
        return inTransaction(at.epk(), txn -> work.apply(new PartitionTxn(txn, at)));
    }

    // ---- container-wide upkeep

    /** Purges the items whose TTL fell due before {@code nowSeconds}; returns how many. The TTL sweep calls this. */
    public int purgeExpired(long nowSeconds) {
        int purged = 0;
        for (String[] due : Expiry.due(store, container.get(), nowSeconds)) {
            if (inTransaction(due[0], txn -> txn.purgeExpired(due[0], due[1], nowSeconds))) {
                purged++;
            }
        }
        return purged;
    }

    /** The logical partitions (EPKs) whose items are being removed after a delete of their partition key. */
    public Set<String> partitionsBeingDeleted() {
        return state.partitionDeletes().partitions();
    }

    /**
     * Removes the items of logical partition {@code epk} that went with a delete of it, one transaction each; after
     * each, {@code more} gets the removal's work and says whether to go on. Once none is left the delete is forgotten.
     *
     * @return how many items were removed
     */
    public int removeDeletedItems(String epk, Predicate<Work> more) {
        long cutoff = state.partitionDeletes().cutoff(epk);
        if (cutoff == 0) {
            return 0;
        }
        byte[][] range = StoreKeys.logicalPartition(container.get().containerId(), epk);
        byte[] from = range[0];
        int removed = 0;
        while (from != null) {
            List<String> ids = new ArrayList<>();
            from = deletedIds(epk, from, range[1], ids);
            for (String id : ids) {
                Work work = inTransaction(epk, txn -> txn.removeDeleted(epk, id));
                if (work != null) {
                    removed++;
                    if (!more.test(work)) {
                        return removed;
                    }
                }
            }
        }
        inTransaction(epk, txn -> txn.finishPartitionDelete(epk, cutoff));
        return removed;
    }

    /**
     * Collects into {@code ids} up to {@link #REMOVAL_CHUNK} ids of items in {@code [from, to)} gone with a delete of
     * their partition; returns where to go on, or null at the end.
     */
    private byte[] deletedIds(String epk, byte[] from, byte[] to, List<String> ids) {
        PartitionDeletes deletes = state.partitionDeletes();
        try (Cursor cur = store.scan(from, to)) {
            while (cur.next()) {
                if (deletes.hides(epk, StoredItem.wrap(cur.value()))) {
                    ids.add(StoreKeys.itemId(cur.key()));
                    if (ids.size() == REMOVAL_CHUNK) {
                        return Arrays.copyOf(cur.key(), cur.key().length + 1);
                    }
                }
            }
        }
        return null;
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
     * Runs {@code work} on logical partition {@code epk} as the writer of its physical partition and commits what it
     * staged; on failure nothing is written and the LSNs it took are given back (or left as a gap when another
     * partition's writer took one since). The partition is routed after the shared writer lock is taken, so no split
     * moves it meanwhile.
     */
    private <T> T inTransaction(String epk, Function<WriteTxn, T> work) {
        try (HeldTxn held = HeldTxn.open(store, container, state, limits, patchCondition, nowSeconds(), epk)) {
            T result = work.apply(held.txn());
            held.commit();
            return result;
        }
    }

    /**
     * Runs {@code work} (which returns non-null) holding the writer of logical partition {@code epk}'s physical
     * partition if it is free at once, else gives null without running it; the writes {@code work} makes take the
     * held writer again. The server's event loop writes this way: it must never wait for another writer.
     */
    public <T> T ifWriterFree(String epk, Supplier<T> work) {
        return HeldTxn.ifWriterFree(container, state, epk, work);
    }

    private void underWriterLock(Runnable work) {
        state.allWriters().lock();
        try {
            work.run();
        } finally {
            state.allWriters().unlock();
        }
    }

    private long nowSeconds() {
        return clock.millis() / 1000;
    }
}
