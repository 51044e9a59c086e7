package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.ResourceNames;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.Conditions;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.ChangeRecord.Operation;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One writer's transaction over one logical partition: stages an operation (or every operation of a transactional
 * batch) with everything kept beside the item ({@link ItemEntries}) and its change-log record, then commits once.
 * Created and committed by {@link Items} as the writer of the partition's physical partition; it draws its LSNs from
 * the container's one sequence ({@link LsnSequence}), which other partitions' writers draw from concurrently.
 */
final class WriteTxn {
    static final Set<String> SYSTEM_PROPERTIES = Set.of("_rid", "_self", "_etag", "_ts", "_attachments", "_lsn");

    private final ContainerInfo c;
    private final ContainerState state;
    private final LsnSequence.Claim lsns;
    private final Limits limits;
    private final PatchCondition patchCondition;
    private final Txn txn;
    private final long now;
    private final ItemEntries entries;
    /** The container's pending partition deletes, with what this transaction changed (published on commit). */
    private PartitionDeletes deletes;
    /** What this transaction changed in the pending deletes, by EPK: the cutoff, or 0 for a delete forgotten. */
    private final Map<String, Long> changedDeletes = new HashMap<>(2);
    private String rangeId;

    WriteTxn(Store store, ContainerInfo c, ContainerState state, Limits limits, PatchCondition patchCondition,
            long nowSeconds) {
        this.c = c;
        this.state = state;
        this.lsns = state.lsns().claim();
        this.limits = limits;
        this.patchCondition = patchCondition;
        this.txn = new Txn(store);
        this.now = nowSeconds;
        this.deletes = state.partitionDeletes();
        this.entries = new ItemEntries(c, txn, limits, new Visibility(nowSeconds, deletes));
    }

    /** The physical partition of the transaction's first operation (a transactional batch has only one). */
    String rangeId() {
        return rangeId;
    }

    void commit() {
        lsns.commit(txn);
        if (!changedDeletes.isEmpty()) {
            state.publishDeletes(changedDeletes);
        }
    }

    /** Gives up a transaction that did not commit: nothing it staged is written. */
    void abandon() {
        lsns.abandon();
    }

    /**
     * Starts a bulk operation that may fail on its own: {@link #rollback} then takes back what it staged (an LSN it
     * took stays a gap, as between the LSNs of one transaction that another partition's writer drew in between).
     * Only creates, upserts, replaces, deletes, reads and patches run this way; they change nothing else here.
     */
    void savepoint() {
        txn.savepoint();
    }

    void rollback() {
        txn.rollback();
    }

    ItemResult execute(KeyRoute at, BatchOperation op) {
        return switch (op.type()) {
            case CREATE -> create(at, object(op), op.resourceBytes());
            case UPSERT -> upsert(at, object(op), op.resourceBytes(), op.conditions());
            case REPLACE -> replace(at, op.id(), object(op), op.resourceBytes(), op.conditions());
            case DELETE -> delete(at, op.id(), op.conditions());
            case READ -> read(at, op.id(), op.conditions());
            case PATCH -> patch(at, op.id(), Patch.parse(op.resourceBody(), limits.maxPatchOperations()),
                    op.conditions());
        };
    }

    /**
     * The operation's body, written in place (system properties added): an operation runs once, and nothing reads its
     * body afterwards, so a copy per bulk item would be wasted.
     */
    private static ObjectNode object(BatchOperation op) {
        if (!(op.resourceBody() instanceof ObjectNode o)) {
            throw ServiceException.badRequest("The operation's 'resourceBody' must be a JSON object.");
        }
        return o;
    }

    ItemResult create(KeyRoute at, ObjectNode doc, byte[] original) {
        String id = locate(at, doc);
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), at.epk(), id));
        if (raw != null && sees(at.epk(), StoredItem.wrap(raw))) {
            throw ServiceException.conflict("An item with this id already exists in the logical partition.");
        }
        return write(at, id, doc, original, raw, 201);
    }

    ItemResult upsert(KeyRoute at, ObjectNode doc, byte[] original, Conditions conditions) {
        String id = locate(at, doc);
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), at.epk(), id));
        StoredItem old = raw == null ? null : StoredItem.wrap(raw);
        boolean exists = old != null && sees(at.epk(), old);
        // If-Match guards only the replace half of an upsert: an item that does not exist is created, as the service
        // does (azure-cosmos-dotnet-v3#1698; the Java SDK's request-option docs, azure-sdk-for-java#43717)
        if (exists) {
            checkIfMatch(conditions, old);
        }
        return write(at, id, doc, original, raw, exists ? 200 : 201);
    }

    ItemResult replace(KeyRoute at, String id, ObjectNode doc, byte[] original, Conditions conditions) {
        if (!locate(at, doc).equals(id)) {
            throw ServiceException.badRequest("The id in the item body does not match the id in the request path.");
        }
        StoredItem old = existing(at, id);
        checkIfMatch(conditions, old);
        return write(at, id, doc, original, old.bytes(), 200);
    }

    ItemResult delete(KeyRoute at, String id, Conditions conditions) {
        StoredItem old = existing(at, id);
        checkIfMatch(conditions, old);
        entries.startOperation();
        long lsn = remove(at.epk(), id, old, Operation.DELETE);
        return new ItemResult(204, null, null, lsn, rangeId,
                Work.write(Work.Operation.DELETE, old.jsonLength(), entries.termsTouched()));
    }

    /**
     * Deletes every item of the routed logical partition as of now: they are gone for reads at once (the request's
     * LSN is the cutoff) and removed in the background by {@link #removeDeleted}. Later writes are not affected.
     */
    ItemResult deletePartition(KeyRoute at) {
        route(at.range().id());
        long lsn = lsns.next();
        txn.put(StoreKeys.partitionDelete(c.containerId(), at.epk()), Bytes.longBytes(lsn));
        deletes = deletes.with(at.epk(), lsn);
        changedDeletes.put(at.epk(), lsn);
        return new ItemResult(200, null, null, lsn, rangeId, Work.partitionKeyDelete());
    }

    /** Removes one item version gone with a delete of its partition; null when it is not (or no longer) such. */
    Work removeDeleted(String epk, String id) {
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
        StoredItem old = raw == null ? null : StoredItem.wrap(raw);
        if (old == null || !deletes.hides(epk, old)) {
            return null;
        }
        route(c.partitions().route(epk).id());
        entries.startOperation();
        remove(epk, id, old, Operation.DELETE);
        return Work.write(Work.Operation.DELETE, old.jsonLength(), entries.termsTouched());
    }

    /**
     * Forgets the delete of {@code epk} once its items are all removed, unless a newer delete of the partition (a
     * later cutoff) came meanwhile; returns whether it did.
     */
    boolean finishPartitionDelete(String epk, long cutoff) {
        if (deletes.cutoff(epk) != cutoff) {
            return false;
        }
        txn.delete(StoreKeys.partitionDelete(c.containerId(), epk));
        deletes = deletes.without(epk);
        changedDeletes.put(epk, 0L);
        return true;
    }

    /** A read inside a batch: sees the batch's own earlier writes. */
    ItemResult read(KeyRoute at, String id, Conditions conditions) {
        StoredItem item = existing(at, id);
        String etag = Etags.of(c.containerId(), item.lsn());
        // a batch read's etag condition, If-Match as the SDKs send it or If-None-Match, answers 304 when the item
        // still has that etag (the .NET and Java SDKs' batch tests: a read with the item's etag is NotModified)
        if (conditions.ifNoneMatch() != null && Etags.matches(conditions.ifNoneMatch(), etag)
                || conditions.ifMatch() != null && Etags.matches(conditions.ifMatch(), etag)) {
            return new ItemResult(304, null, etag, state.lsn(), rangeId, Work.notModified());
        }
        return new ItemResult(200, item, etag, state.lsn(), rangeId, Work.read(item.jsonLength()));
    }

    ItemResult patch(KeyRoute at, String id, Patch patch, Conditions conditions) {
        StoredItem old = existing(at, id);
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
        locate(at, doc);
        return write(at, id, doc, null, old.bytes(), 200);
    }

    /** The live items of one logical partition as this transaction sees them (its own writes included), by id. */
    List<StoredItem> logicalPartition(KeyRoute at) {
        byte[][] range = StoreKeys.logicalPartition(c.containerId(), at.epk());
        List<StoredItem> live = new ArrayList<>();
        for (byte[] raw : txn.scan(range[0], range[1]).values()) {
            StoredItem item = StoredItem.wrap(raw);
            if (item.isLiveAt(now)) {
                live.add(item);
            }
        }
        return live;
    }

    /** Removes the item if it expired before {@code nowSeconds}; the TTL sweep's operation. */
    boolean purgeExpired(String epk, String id, long nowSeconds) {
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, id));
        if (raw == null) {
            return false;
        }
        StoredItem old = StoredItem.wrap(raw);
        if (old.isLiveAt(nowSeconds)) {
            return false;
        }
        route(c.partitions().route(epk).id());
        entries.startOperation();
        remove(epk, id, old, Operation.TTL_EXPIRE);
        return true;
    }

    /** The live item {@code id} of the routed logical partition; 404 if there is none. */
    private StoredItem existing(KeyRoute at, String id) {
        route(at.range().id());
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), at.epk(), id));
        StoredItem item = raw == null ? null : StoredItem.wrap(raw);
        if (item == null || !sees(at.epk(), item)) {
            throw ServiceException.itemNotFound();
        }
        return item;
    }

    private boolean sees(String epk, StoredItem item) {
        return item.isLiveAt(now) && !deletes.hides(epk, item);
    }

    /** Removes a stored version with everything kept beside it and logs its removal; returns the removal's LSN. */
    private long remove(String epk, String id, StoredItem old, Operation operation) {
        long lsn = lsns.next();
        entries.remove(epk, id, old);
        keepImage(old);
        log(new ChangeRecord(operation, lsn, now, epk, id, old.lsn(), null, old.json()));
        return lsn;
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
                && !Etags.matches(conditions.ifMatch(), Etags.of(c.containerId(), old.lsn()))) {
            throw ServiceException.preconditionFailed("The item was changed since the etag in If-Match was read.");
        }
    }

    /**
     * Validates the body's id and checks that its partition key is the one the request was routed by (400/1001
     * otherwise); returns the id.
     */
    private String locate(KeyRoute at, ObjectNode doc) {
        JsonNode idNode = doc.get("id");
        if (idNode == null || idNode.isNull()) {
            throw ServiceException.badRequest("The item has no 'id'; every item needs a string 'id'.");
        }
        if (!idNode.isTextual()) {
            throw ServiceException.badRequest("The item's 'id' must be a string.");
        }
        String id = idNode.asText();
        ResourceNames.validateItemId(id, limits.maxIdBytes());
        if (!at.key().equals(PartitionKeyValue.extract(c.partitionKey(), doc))) {
            // the service's words
            throw ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH, "PartitionKey extracted from document"
                    + " doesn't match the one specified in the header. Learn more:"
                    + " https://aka.ms/CosmosDB/sql/errors/wrong-pk-value");
        }
        route(at.range().id());
        return id;
    }

    private void route(String id) {
        if (rangeId == null) {
            rangeId = id;
        }
    }

    /**
     * Stages the new version of an item, replacing {@code raw} (the stored bytes, possibly expired).
     *
     * @param original the request body {@code doc} was parsed from, or null: when the client sent no system
     *                 properties, the stored JSON is these bytes with the system properties appended
     */
    private ItemResult write(KeyRoute at, String id, ObjectNode doc, byte[] original, byte[] raw, int status) {
        String epk = at.epk();
        entries.startOperation();
        StoredItem previous = raw == null ? null : StoredItem.wrap(raw);
        if (previous != null && !sees(epk, previous)) {
            // a version still on disk that reads no longer see: record its removal first, as the TTL sweep or the
            // partition delete's background removal would have
            remove(epk, id, previous, deletes.hides(epk, previous) ? Operation.DELETE : Operation.TTL_EXPIRE);
            previous = null;
        }
        long lsn = lsns.next();
        long ridSequence = previous != null ? previous.ridSequence() : lsn;
        Expiry.check(c, doc.get("ttl"), limits);
        long expiresAt = Expiry.expiresAt(c, doc.get("ttl"), now, limits);
        String etag = Etags.of(c.containerId(), lsn);
        String docRid = ResourceIds.encode(ResourceIds.document(ResourceIds.tryDecode(c.rid()), ridSequence));
        String self = c.selfLink() + "docs/" + docRid + "/";
        byte[] json = original != null && !hasSystemProperty(doc)
                ? SystemProperties.append(original, docRid, self, etag, now)
                : null;
        if (json == null || entries.indexes()) {
            // the index sees the item as stored, system properties included
            SYSTEM_PROPERTIES.forEach(doc::remove);
            doc.put("_rid", docRid);
            doc.put("_self", self);
            doc.put("_etag", etag);
            doc.put("_attachments", "attachments/");
            doc.put("_ts", now);
        }
        if (json == null) {
            json = Json.bytes(doc);
        }
        if (json.length > limits.maxItemBytes()) {
            throw ServiceException.tooLarge();
        }
        if (Json.depth(doc) > limits.maxNestingDepth()) {
            throw ServiceException.badRequest("The item is nested deeper than " + limits.maxNestingDepth()
                    + " levels.");
        }
        StoredItem item = StoredItem.encode(lsn, now, ridSequence, expiresAt, json);
        ObjectNode previousDoc = previous != null && entries.needsOldDocument()
                ? Json.parseObject(previous.json(), "stored item") : null;
        if (previous != null) {
            entries.release(epk, id, previous, previousDoc);
        }
        entries.claim(epk, id, doc, expiresAt);
        entries.updateTerms(epk, id, previousDoc, doc);
        entries.addSize(epk, item.bytes().length - (previous == null ? 0 : previous.bytes().length),
                previous == null ? 1 : 0);
        txn.put(StoreKeys.item(c.containerId(), epk, id), item.bytes());
        if (previous != null) {
            keepImage(previous);
        }
        // the image stays in the item until a later write supersedes it (ChangeRecord); a replace's previous image
        // is not served (see ChangeFeedJson), and the superseded record now holds it anyway
        log(new ChangeRecord(previous == null ? Operation.CREATE : Operation.REPLACE, lsn, now, epk, id,
                previous == null ? 0 : previous.lsn(), null, null));
        return new ItemResult(status, item, etag, lsn, rangeId, Work.write(previous == null ? Work.Operation.CREATE
                : Work.Operation.REPLACE, json.length, entries.termsTouched()));
    }

    /**
     * Moves the image of a version this write supersedes or removes into that version's change record, which was
     * logged without it while the item held it (a record the pruner dropped, or one written with its image, is left).
     */
    private void keepImage(StoredItem old) {
        byte[] key = StoreKeys.log(c.containerId(), old.lsn());
        byte[] record = txn.get(key);
        if (record != null && !ChangeRecord.holdsImage(record)) {
            txn.put(key, ChangeRecord.withImage(record, old.bytes(), old.jsonOffset(), old.jsonLength()));
        }
    }

    private void log(ChangeRecord record) {
        txn.put(StoreKeys.log(c.containerId(), record.lsn()), record.encode());
    }

    private static boolean hasSystemProperty(ObjectNode doc) {
        for (String p : SYSTEM_PROPERTIES) {
            if (doc.has(p)) {
                return true;
            }
        }
        return false;
    }
}
