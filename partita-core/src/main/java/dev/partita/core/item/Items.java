package dev.partita.core.item;

import dev.partita.core.request.Conditions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.ResourceNames;
import dev.partita.core.account.UniqueKey;
import dev.partita.core.limits.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.changefeed.ChangeRecord;
import dev.partita.core.changefeed.ChangeRecord.Operation;
import dev.partita.core.index.IndexState;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The item operations of one container: point reads and writes, patch, transactional batch, bulk and read-many.
 *
 * <p>Every write runs under the container's writer lock and commits one store batch holding the item, its unique-key
 * and TTL index entries, the logical partition's size and the change-log record, so a crash never leaves half of it.
 */
public final class Items {
    private static final Set<String> SYSTEM_PROPERTIES = Set.of("_rid", "_self", "_etag", "_ts", "_attachments",
            "_lsn");

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

    // ---- reads

    public ItemResult read(PartitionKeyValue pk, String id, Conditions conditions) {
        ContainerInfo c = container.get();
        String epk = pointEpk(c, pk);
        PhysicalPartition range = c.partitions().route(epk);
        StoredItem item = live(store.get(StoreKeys.item(c.containerId(), epk, id)));
        if (item == null) {
            throw ServiceException.notFound("The item does not exist.");
        }
        String etag = Etags.of(c.containerId(), item.lsn());
        if (conditions.ifNoneMatch() != null && etagMatches(conditions.ifNoneMatch(), etag)) {
            return new ItemResult(304, null, etag, state.lsn(), range.id(), Work.notModified());
        }
        return new ItemResult(200, item, etag, state.lsn(), range.id(), Work.read(item.jsonLength()));
    }

    /** The items that exist among the given identities, in the order asked; missing ones are left out. */
    public List<StoredItem> readMany(List<ItemIdentity> identities) {
        ContainerInfo c = container.get();
        List<StoredItem> out = new ArrayList<>(identities.size());
        for (ItemIdentity identity : identities) {
            StoredItem item = live(store.get(StoreKeys.item(c.containerId(), pointEpk(c, identity.partitionKey()),
                    identity.id())));
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    // ---- writes

    public ItemResult create(PartitionKeyValue pk, byte[] body, Conditions conditions) {
        ObjectNode doc = Json.parseObject(body, "item");
        return inTransaction(txn -> txn.create(pk, doc, body));
    }

    public ItemResult upsert(PartitionKeyValue pk, byte[] body, Conditions conditions) {
        ObjectNode doc = Json.parseObject(body, "item");
        return inTransaction(txn -> txn.upsert(pk, doc, body, conditions));
    }

    public ItemResult replace(PartitionKeyValue pk, String id, byte[] body, Conditions conditions) {
        ObjectNode doc = Json.parseObject(body, "item");
        return inTransaction(txn -> txn.replace(pk, id, doc, body, conditions));
    }

    public ItemResult delete(PartitionKeyValue pk, String id, Conditions conditions) {
        return inTransaction(txn -> txn.delete(pk, id, conditions));
    }

    public ItemResult patch(PartitionKeyValue pk, String id, byte[] body, Conditions conditions) {
        Patch patch = Patch.parse(Json.parse(body, "patch body"), limits.maxPatchOperations());
        return inTransaction(txn -> txn.patch(pk, id, patch, conditions));
    }

    /**
     * Runs a transactional batch: every operation against one logical partition, all applied or none. A failing
     * operation keeps its status; all others get 424.
     */
    public BatchResult batch(PartitionKeyValue pk, byte[] body) {
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
                        results.add(BatchResult.OpResult.of(txn.execute(pk, ops.get(i))));
                    } catch (ServiceException e) {
                        throw new BatchFailed(BatchResult.failed(ops.size(), i, e));
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
     * Runs bulk operations: each with its own partition key (the {@code partitionKey} field), each committed on its
     * own, failures reported per operation.
     */
    public BatchResult bulk(byte[] body) {
        return bulk(body, BulkGate.OPEN);
    }

    /** As {@link #bulk(byte[])}, asking {@code gate} before each operation whether it may run. */
    public BatchResult bulk(byte[] body, BulkGate gate) {
        List<BatchOperation> ops = BatchOperation.parseAll(Json.parse(body, "bulk body"), true);
        List<BatchResult.OpResult> results = new ArrayList<>(ops.size());
        String rangeId = null;
        ServiceException throttled = null;
        for (BatchOperation op : ops) {
            if (throttled == null) {
                throttled = gate.refusal();
            }
            if (throttled != null) {
                results.add(BatchResult.OpResult.error(throttled));
                continue;
            }
            BatchResult.OpResult result;
            try {
                ItemResult r = inTransaction(txn -> txn.execute(op.partitionKey(), op));
                rangeId = r.rangeId();
                result = BatchResult.OpResult.of(r);
            } catch (ServiceException e) {
                result = BatchResult.OpResult.error(e);
            }
            results.add(result);
            gate.ran(result);
        }
        return new BatchResult(results, state.lsn(), rangeId);
    }

    /** Physically removes the item if it expired before {@code nowSeconds}; called by the TTL sweeper. */
    public boolean purgeIfExpired(String epk, String id, long nowSeconds) {
        return inTransaction(txn -> txn.purgeExpired(epk, id, nowSeconds));
    }

    /**
     * Runs {@code work} as the container's one writer and commits what it staged; on failure nothing is written and
     * the LSNs it took are given back.
     */
    private <T> T inTransaction(java.util.function.Function<WriteTxn, T> work) {
        state.writeLock().lock();
        long startLsn = state.lsn();
        try {
            WriteTxn txn = new WriteTxn(container.get());
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

    // ---- helpers shared by reads and writes

    private StoredItem live(byte[] stored) {
        if (stored == null) {
            return null;
        }
        StoredItem item = StoredItem.wrap(stored);
        return item.isLiveAt(nowSeconds()) ? item : null;
    }

    private long nowSeconds() {
        return clock.millis() / 1000;
    }

    /** The EPK of a full partition key named by the caller (point operations need every component). */
    private String pointEpk(ContainerInfo c, PartitionKeyValue pk) {
        if (pk == null) {
            throw ServiceException.badRequest("This operation needs the partition key (x-ms-documentdb-partitionkey).");
        }
        pk.validateFor(c.partitionKey(), limits, true);
        return EffectivePartitionKey.of(c.partitionKey(), pk);
    }

    private static boolean etagMatches(String condition, String etag) {
        return "*".equals(condition.trim()) || condition.trim().equals(etag);
    }

    /** One writer's transaction over the container: stages everything, commits once. */
    private final class WriteTxn {
        private final ContainerInfo c;
        private final Txn txn = new Txn(store);
        private final long now = nowSeconds();
        private final IndexingPolicy policy;
        private String rangeId;
        private String batchEpk;
        /** Index terms written or removed by the operation in progress (a batch runs several). */
        private long opTerms;

        WriteTxn(ContainerInfo c) {
            this.c = c;
            this.policy = IndexingPolicy.of(c.containerId(), c.properties().get("indexingPolicy"));
        }

        String rangeId() {
            return rangeId;
        }

        void commit() {
            txn.put(StoreKeys.meta("lsn/" + c.containerId()), longBytes(state.lsn()));
            txn.commit();
        }

        ItemResult execute(PartitionKeyValue pk, BatchOperation op) {
            return switch (op.type()) {
                case CREATE -> create(pk, object(op), null);
                case UPSERT -> upsert(pk, object(op), null, op.conditions());
                case REPLACE -> replace(pk, op.id(), object(op), null, op.conditions());
                case DELETE -> delete(pk, op.id(), op.conditions());
                case READ -> readInBatch(pk, op.id(), op.conditions());
                case PATCH -> patch(pk, op.id(), Patch.parse(op.resourceBody(), limits.maxPatchOperations()),
                        op.conditions());
            };
        }

        private ObjectNode object(BatchOperation op) {
            if (!(op.resourceBody() instanceof ObjectNode o)) {
                throw ServiceException.badRequest("The operation's 'resourceBody' must be a JSON object.");
            }
            return o.deepCopy();
        }

        ItemResult create(PartitionKeyValue pk, ObjectNode doc, byte[] original) {
            Located at = locate(pk, doc);
            byte[] key = StoreKeys.item(c.containerId(), at.epk, at.id);
            byte[] raw = txn.get(key);
            if (raw != null && StoredItem.wrap(raw).isLiveAt(now)) {
                throw ServiceException.conflict("An item with this id already exists in the logical partition.");
            }
            return write(at, doc, original, raw, 201);
        }

        ItemResult upsert(PartitionKeyValue pk, ObjectNode doc, byte[] original, Conditions conditions) {
            Located at = locate(pk, doc);
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), at.epk, at.id));
            StoredItem old = raw == null ? null : StoredItem.wrap(raw);
            boolean exists = old != null && old.isLiveAt(now);
            if (exists) {
                checkIfMatch(conditions, old);
            } else if (conditions.ifMatch() != null) {
                throw ServiceException.preconditionFailed("The item does not exist, so its etag cannot match.");
            }
            return write(at, doc, original, raw, exists ? 200 : 201);
        }

        ItemResult replace(PartitionKeyValue pk, String id, ObjectNode doc, byte[] original,
                Conditions conditions) {
            Located at = locate(pk, doc);
            if (!at.id.equals(id)) {
                throw ServiceException.badRequest("The id in the item body does not match the id in the request path.");
            }
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), at.epk, at.id));
            StoredItem old = raw == null ? null : StoredItem.wrap(raw);
            if (old == null || !old.isLiveAt(now)) {
                throw ServiceException.notFound("The item does not exist.");
            }
            checkIfMatch(conditions, old);
            return write(at, doc, original, raw, 200);
        }

        ItemResult delete(PartitionKeyValue pk, String id, Conditions conditions) {
            String epk = pointEpk(c, pk);
            route(epk);
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
            StoredItem old = raw == null ? null : StoredItem.wrap(raw);
            if (old == null || !old.isLiveAt(now)) {
                throw ServiceException.notFound("The item does not exist.");
            }
            checkIfMatch(conditions, old);
            long lsn = state.nextLsn();
            opTerms = 0;
            remove(epk, id, old);
            log(new ChangeRecord(Operation.DELETE, lsn, now, epk, id, old.lsn(), null, old.json()));
            return new ItemResult(204, null, null, lsn, rangeId,
                    Work.write(Work.Operation.DELETE, old.jsonLength(), opTerms));
        }

        ItemResult readInBatch(PartitionKeyValue pk, String id, Conditions conditions) {
            String epk = pointEpk(c, pk);
            route(epk);
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
            StoredItem item = raw == null ? null : StoredItem.wrap(raw);
            if (item == null || !item.isLiveAt(now)) {
                throw ServiceException.notFound("The item does not exist.");
            }
            String etag = Etags.of(c.containerId(), item.lsn());
            if (conditions.ifNoneMatch() != null && etagMatches(conditions.ifNoneMatch(), etag)) {
                return new ItemResult(304, null, etag, state.lsn(), rangeId, Work.notModified());
            }
            return new ItemResult(200, item, etag, state.lsn(), rangeId, Work.read(item.jsonLength()));
        }

        ItemResult patch(PartitionKeyValue pk, String id, Patch patch, Conditions conditions) {
            String epk = pointEpk(c, pk);
            route(epk);
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
            StoredItem old = raw == null ? null : StoredItem.wrap(raw);
            if (old == null || !old.isLiveAt(now)) {
                throw ServiceException.notFound("The item does not exist.");
            }
            checkIfMatch(conditions, old);
            for (String path : patch.touchedPaths()) {
                checkPatchable(path);
            }
            ObjectNode doc = Json.parseObject(old.json(), "stored item");
            if (patch.condition() != null && !patchCondition.test(patch.condition(), doc)) {
                throw ServiceException.preconditionFailed("The patch's filter predicate is not true for the item.");
            }
            SYSTEM_PROPERTIES.forEach(doc::remove);
            patch.applyTo(doc);
            Located at = locate(pk, doc);
            return write(at, doc, null, raw, 200);
        }

        boolean purgeExpired(String epk, String id, long nowSeconds) {
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
            if (raw == null) {
                return false;
            }
            StoredItem old = StoredItem.wrap(raw);
            if (old.isLiveAt(nowSeconds)) {
                return false;
            }
            route(epk);
            long lsn = state.nextLsn();
            opTerms = 0;
            remove(epk, id, old);
            log(new ChangeRecord(Operation.TTL_EXPIRE, lsn, now, epk, id, old.lsn(), null, old.json()));
            return true;
        }

        private void checkPatchable(String path) {
            String top = Patch.segments(path).get(0);
            if ("id".equals(top) || SYSTEM_PROPERTIES.contains(top)) {
                throw ServiceException.badRequest("A patch cannot change '/" + top + "'.");
            }
            for (String pkPath : c.partitionKey().paths()) {
                if (pkPath.equals(path) || pkPath.startsWith(path + "/") || path.startsWith(pkPath + "/")) {
                    throw ServiceException.badRequest("A patch cannot change the partition key path " + pkPath + ".");
                }
            }
        }

        private void checkIfMatch(Conditions conditions, StoredItem old) {
            if (conditions.ifMatch() != null
                    && !etagMatches(conditions.ifMatch(), Etags.of(c.containerId(), old.lsn()))) {
                throw ServiceException.preconditionFailed("The item was changed since the etag in If-Match was read.");
            }
        }

        /** Validates the body's id and partition key against the caller's key and routes it. */
        private Located locate(PartitionKeyValue pk, ObjectNode doc) {
            JsonNode idNode = doc.get("id");
            if (idNode == null || idNode.isNull()) {
                throw ServiceException.badRequest("The item has no 'id'; every item needs a string 'id'.");
            }
            if (!idNode.isTextual()) {
                throw ServiceException.badRequest("The item's 'id' must be a string.");
            }
            String id = idNode.asText();
            ResourceNames.validateItemId(id, limits.maxIdBytes());
            PartitionKeyValue fromBody = PartitionKeyValue.extract(c.partitionKey(), doc);
            if (pk != null) {
                pk.validateFor(c.partitionKey(), limits, true);
                if (!pk.equals(fromBody)) {
                    throw ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH, "The partition key in the item"
                            + " does not match the partition key the request names.");
                }
            }
            fromBody.validateFor(c.partitionKey(), limits, true);
            String epk = EffectivePartitionKey.of(c.partitionKey(), fromBody);
            route(epk);
            return new Located(id, epk);
        }

        private void route(String epk) {
            String id = c.partitions().route(epk).id();
            if (batchEpk == null) {
                batchEpk = epk;
                rangeId = id;
            }
        }

        /**
         * Stages the new version of an item, replacing {@code raw} (the stored bytes, possibly expired).
         *
         * @param original the request body {@code doc} was parsed from, or null: when the client sent no system
         *                 properties, the stored JSON is these bytes with the system properties appended
         */
        private ItemResult write(Located at, ObjectNode doc, byte[] original, byte[] raw, int status) {
            opTerms = 0;
            StoredItem previous = raw == null ? null : StoredItem.wrap(raw);
            if (previous != null && !previous.isLiveAt(now)) {
                // an expired version still on disk: record its expiry first, as the sweeper would have
                long expireLsn = state.nextLsn();
                remove(at.epk, at.id, previous);
                log(new ChangeRecord(Operation.TTL_EXPIRE, expireLsn, now, at.epk, at.id, previous.lsn(), null,
                        previous.json()));
                previous = null;
            }
            long lsn = state.nextLsn();
            long ridSequence = previous != null ? previous.ridSequence() : lsn;
            long expiresAt = expiry(doc);
            String etag = Etags.of(c.containerId(), lsn);
            String docRid = ResourceIds.encode(ResourceIds.document(ResourceIds.tryDecode(c.rid()), ridSequence));
            String self = c.selfLink() + "docs/" + docRid + "/";
            byte[] json = original != null && !hasSystemProperty(doc)
                    ? SystemProperties.append(original, docRid, self, etag, now)
                    : null;
            if (json == null) {
                SYSTEM_PROPERTIES.forEach(doc::remove);
                doc.put("_rid", docRid);
                doc.put("_self", self);
                doc.put("_etag", etag);
                doc.put("_attachments", "attachments/");
                doc.put("_ts", now);
                json = Json.bytes(doc);
            } else if (policy.isIndexing()) {
                // the stored JSON got them appended; the index sees the item as stored
                doc.put("_rid", docRid);
                doc.put("_self", self);
                doc.put("_etag", etag);
                doc.put("_attachments", "attachments/");
                doc.put("_ts", now);
            }
            if (json.length > limits.maxItemBytes()) {
                throw ServiceException.tooLarge("The item is " + json.length + " bytes; the limit is "
                        + limits.maxItemBytes() + " bytes.");
            }
            if (Json.depth(doc) > limits.maxNestingDepth()) {
                throw ServiceException.badRequest("The item is nested deeper than " + limits.maxNestingDepth()
                        + " levels.");
            }
            StoredItem item = StoredItem.encode(lsn, now, ridSequence, expiresAt, json);
            ObjectNode previousDoc = previous != null && needsOldDoc() ? Json.parseObject(previous.json(),
                    "stored item") : null;
            if (previous != null) {
                unindex(at.epk, at.id, previous, previousDoc);
            }
            index(at.epk, at.id, doc, expiresAt);
            updateTerms(at.epk, at.id, previousDoc, doc);
            addSize(at.epk, item.bytes().length - (previous == null ? 0 : previous.bytes().length));
            txn.put(StoreKeys.item(c.containerId(), at.epk, at.id), item.bytes());
            log(new ChangeRecord(previous == null ? Operation.CREATE : Operation.REPLACE, lsn, now, at.epk, at.id,
                    previous == null ? 0 : previous.lsn(), json, previous == null ? null : previous.json()));
            return new ItemResult(status, item, etag, lsn, rangeId,
                    Work.write(previous == null ? Work.Operation.CREATE : Work.Operation.REPLACE, json.length,
                            opTerms));
        }

        private boolean needsOldDoc() {
            return policy.isIndexing() || !c.uniqueKeys().isEmpty();
        }

        /**
         * Replaces the item's index entries: the terms of the old version go, those of the new one come. Both count
         * as work (the service prices a replace as removal plus insertion); entries common to both stay untouched.
         */
        private void updateTerms(String epk, String id, ObjectNode before, ObjectNode after) {
            if (!policy.isIndexing()) {
                return;
            }
            List<byte[]> removed = before == null ? List.of() : IndexTerms.of(policy, before);
            List<byte[]> added = after == null ? List.of() : IndexTerms.of(policy, after);
            opTerms += removed.size() + added.size();
            Set<ByteBuffer> kept = new HashSet<>();
            for (byte[] t : added) {
                kept.add(ByteBuffer.wrap(t));
            }
            Set<ByteBuffer> old = new HashSet<>();
            for (byte[] t : removed) {
                old.add(ByteBuffer.wrap(t));
                if (!kept.contains(ByteBuffer.wrap(t))) {
                    txn.delete(StoreKeys.index(c.containerId(), t, epk, id));
                }
            }
            for (byte[] t : added) {
                if (!old.contains(ByteBuffer.wrap(t))) {
                    txn.put(StoreKeys.index(c.containerId(), t, epk, id), NO_VALUE);
                }
            }
        }

        private void remove(String epk, String id, StoredItem old) {
            ObjectNode oldDoc = needsOldDoc() ? Json.parseObject(old.json(), "stored item") : null;
            unindex(epk, id, old, oldDoc);
            updateTerms(epk, id, oldDoc, null);
            addSize(epk, -old.bytes().length);
            txn.delete(StoreKeys.item(c.containerId(), epk, id));
        }

        private void log(ChangeRecord record) {
            txn.put(StoreKeys.log(c.containerId(), record.lsn()), record.encode());
        }

        private long expiry(ObjectNode doc) {
            JsonNode ttl = doc.get("ttl");
            if (c.ttlEnabled() && ttl != null && !validTtl(ttl)) {
                throw ServiceException.badRequest("The item's 'ttl' must be -1 or a whole number of seconds"
                        + " between 1 and " + limits.maxTtlSeconds() + ".");
            }
            return expiresAt(c, ttl, now);
        }

        private void index(String epk, String id, ObjectNode doc, long expiresAt) {
            byte[] idBytes = id.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            List<UniqueKey> keys = c.uniqueKeys();
            for (int i = 0; i < keys.size(); i++) {
                byte[] key = StoreKeys.unique(c.containerId(), epk, i, uniqueValues(keys.get(i), doc));
                byte[] owner = txn.get(key);
                if (owner != null && !java.util.Arrays.equals(owner, idBytes) && ownerIsLive(epk, owner)) {
                    throw ServiceException.conflict("Another item in the logical partition already has these values"
                            + " for the unique key " + keys.get(i).paths() + ".");
                }
                txn.put(key, idBytes);
            }
            if (expiresAt > 0) {
                txn.put(StoreKeys.ttl(c.containerId(), expiresAt, epk, id), new byte[0]);
            }
        }

        private boolean ownerIsLive(String epk, byte[] ownerId) {
            byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk,
                    new String(ownerId, java.nio.charset.StandardCharsets.UTF_8)));
            return raw != null && StoredItem.wrap(raw).isLiveAt(now);
        }

        private void unindex(String epk, String id, StoredItem old, ObjectNode doc) {
            List<UniqueKey> keys = c.uniqueKeys();
            if (!keys.isEmpty()) {
                byte[] idBytes = id.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                for (int i = 0; i < keys.size(); i++) {
                    byte[] key = StoreKeys.unique(c.containerId(), epk, i, uniqueValues(keys.get(i), doc));
                    if (java.util.Arrays.equals(txn.get(key), idBytes)) {
                        txn.delete(key);
                    }
                }
            }
            if (old.expiresAt() > 0) {
                txn.delete(StoreKeys.ttl(c.containerId(), old.expiresAt(), epk, id));
            }
        }

        private void addSize(String epk, long delta) {
            byte[] key = StoreKeys.partitionSize(c.containerId(), epk);
            byte[] current = txn.get(key);
            long size = (current == null ? 0 : StoredItem.getLong(current, 0)) + delta;
            if (delta > 0 && size > limits.maxLogicalPartitionBytes()) {
                throw ServiceException.forbidden(SubStatus.LOGICAL_PARTITION_FULL, "Partition key reached maximum size"
                        + " of " + (limits.maxLogicalPartitionBytes() / (1024 * 1024 * 1024.0)) + " GB.");
            }
            if (size <= 0) {
                txn.delete(key);
            } else {
                txn.put(key, longBytes(size));
            }
        }
    }

    private record Located(String id, String epk) {
    }

    private static final byte[] NO_VALUE = new byte[0];

    private static boolean hasSystemProperty(ObjectNode doc) {
        for (String p : SYSTEM_PROPERTIES) {
            if (doc.has(p)) {
                return true;
            }
        }
        return false;
    }

    private boolean validTtl(JsonNode ttl) {
        return ttl.isIntegralNumber() && ttl.canConvertToInt() && ttl.intValue() != 0 && ttl.intValue() >= -1
                && ttl.intValue() <= limits.maxTtlSeconds();
    }

    /** When an item written at {@code ts} expires under the container's TTL settings; 0 = never. */
    private long expiresAt(ContainerInfo c, JsonNode ttl, long ts) {
        if (!c.ttlEnabled()) {
            return 0;
        }
        int seconds = ttl != null && validTtl(ttl) ? ttl.intValue() : c.defaultTtl();
        return seconds > 0 ? ts + seconds : 0;
    }

    /**
     * Recomputes every item's expiry from its {@code _ts} after the container's default TTL changed, so that turning
     * TTL on, off or changing the default applies to items already written.
     */
    public void recomputeExpiry() {
        state.writeLock().lock();
        try {
            ContainerInfo c = container.get();
            byte[][] range = StoreKeys.itemRange(c.containerId(), "", "FF");
            WriteBatch batch = new WriteBatch();
            try (Cursor cur = store.scan(range[0], range[1])) {
                while (cur.next()) {
                    StoredItem item = StoredItem.wrap(cur.value());
                    JsonNode ttl = Json.parseObject(item.json(), "stored item").get("ttl");
                    long expiresAt = expiresAt(c, ttl, item.ts());
                    if (expiresAt == item.expiresAt()) {
                        continue;
                    }
                    String epk = StoreKeys.itemEpk(cur.key());
                    String id = StoreKeys.itemId(cur.key());
                    if (item.expiresAt() > 0) {
                        batch.delete(StoreKeys.ttl(c.containerId(), item.expiresAt(), epk, id));
                    }
                    if (expiresAt > 0) {
                        batch.put(StoreKeys.ttl(c.containerId(), expiresAt, epk, id), new byte[0]);
                    }
                    batch.put(cur.key(), item.withExpiry(expiresAt).bytes());
                    if (batch.size() >= 1024) {
                        store.apply(batch);
                        batch = new WriteBatch();
                    }
                }
            }
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        } finally {
            state.writeLock().unlock();
        }
    }

    /**
     * Rebuilds the container's index entries under its current indexing policy, after the policy changed: drops
     * every entry, then writes the terms of every stored item (expired ones too, as writes do, so that their purge
     * removes them). Synchronous, under the writer lock, applied in chunks: the container's index record (see
     * {@link IndexState}) is cleared first and written last, so queries scan while the rebuild runs and after a crash
     * in the middle of it, until the next rebuild.
     */
    public void reindex() {
        state.writeLock().lock();
        try {
            ContainerInfo c = container.get();
            IndexingPolicy policy = IndexingPolicy.of(c.containerId(), c.properties().get("indexingPolicy"));
            // queries scan from here until the rebuild is complete
            store.apply(new WriteBatch().delete(IndexState.key(c.containerId())));
            Chunks chunks = new Chunks();
            try (Snapshot snapshot = store.snapshot()) {
                try (Cursor cur = snapshot.scan(StoreKeys.containerStart(StoreKeys.indexSpace(), c.containerId()),
                        StoreKeys.containerEnd(StoreKeys.indexSpace(), c.containerId()))) {
                    while (cur.next()) {
                        chunks.delete(cur.key());
                    }
                }
                if (policy.isIndexing()) {
                    byte[][] range = StoreKeys.itemRange(c.containerId(), "", "FF");
                    try (Cursor cur = snapshot.scan(range[0], range[1])) {
                        while (cur.next()) {
                            String epk = StoreKeys.itemEpk(cur.key());
                            String id = StoreKeys.itemId(cur.key());
                            JsonNode doc = Json.parseObject(StoredItem.wrap(cur.value()).json(), "stored item");
                            for (byte[] term : IndexTerms.of(policy, doc)) {
                                chunks.put(StoreKeys.index(c.containerId(), term, epk, id));
                            }
                        }
                    }
                }
            }
            chunks.flush();
            // only now may queries use the entries (until here they scan)
            store.apply(new WriteBatch().put(IndexState.key(c.containerId()),
                    IndexState.value(c.properties().get("indexingPolicy"))));
        } finally {
            state.writeLock().unlock();
        }
    }

    /**
     * Rebuilds the index if its entries are not complete for the current policy (data stored before indexes
     * existed, or a rebuild cut short by a crash); returns whether it did.
     */
    public boolean reindexIfStale() {
        state.writeLock().lock();
        try {
            ContainerInfo c = container.get();
            if (IndexState.isReady(store, c.containerId(), c.properties().get("indexingPolicy"))) {
                return false;
            }
            reindex();
            return true;
        } finally {
            state.writeLock().unlock();
        }
    }

    /** Store batches of bounded size for rebuilds that touch a whole container. */
    private final class Chunks {
        private static final int SIZE = 1024;
        private WriteBatch batch = new WriteBatch();

        void put(byte[] key) {
            batch.put(key, NO_VALUE);
            flushIfFull();
        }

        void delete(byte[] key) {
            batch.delete(key);
            flushIfFull();
        }

        private void flushIfFull() {
            if (batch.size() >= SIZE) {
                flush();
            }
        }

        void flush() {
            if (!batch.isEmpty()) {
                store.apply(batch);
                batch = new WriteBatch();
            }
        }
    }

    static byte[] uniqueValues(UniqueKey key, ObjectNode doc) {
        ArrayNode values = Json.NODES.arrayNode();
        for (String path : key.paths()) {
            JsonNode v = doc;
            for (String segment : Patch.segments(path)) {
                v = v == null ? null : v.get(segment);
            }
            values.add(v == null ? Json.NODES.nullNode() : v);
        }
        return Json.bytes(values);
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        StoredItem.putLong(b, 0, v);
        return b;
    }
}
