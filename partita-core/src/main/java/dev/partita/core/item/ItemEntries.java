package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.UniqueKey;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.StoreKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The entries a write keeps beside an item, staged in the same transaction: its unique-key claims, its TTL entry,
 * its index terms, and its logical partition's size (with the 20 GB limit, 403/1014). One per write transaction.
 */
final class ItemEntries {
    private static final byte[] NO_VALUE = new byte[0];

    private final ContainerInfo c;
    private final Txn txn;
    private final Limits limits;
    /** Which versions count as live owners of a unique-key value. */
    private final Visibility visible;
    private final IndexingPolicy policy;
    /** Index terms written or removed by the operation in progress (a batch runs several): the cost model's input. */
    private long terms;

    ItemEntries(ContainerInfo c, Txn txn, Limits limits, Visibility visible) {
        this.c = c;
        this.txn = txn;
        this.limits = limits;
        this.visible = visible;
        this.policy = c.indexingPolicy();
    }

    /** Starts counting the index terms of a new operation. */
    void startOperation() {
        terms = 0;
    }

    long termsTouched() {
        return terms;
    }


    /** Whether removing or replacing an item needs its old version parsed (to find its old terms and claims). */
    boolean needsOldDocument() {
        return policy.isIndexing() || !c.uniqueKeys().isEmpty();
    }

    /** Whether the index must see the document with its system properties (it indexes them as stored). */
    boolean indexes() {
        return policy.isIndexing();
    }

    /** Claims the item's unique-key values (409 when another live item holds them) and records its expiry. */
    void claim(String epk, String id, ObjectNode doc, long expiresAt) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        List<UniqueKey> keys = c.uniqueKeys();
        for (int i = 0; i < keys.size(); i++) {
            byte[] key = StoreKeys.unique(c.containerId(), epk, i, uniqueValues(keys.get(i), doc));
            byte[] owner = txn.get(key);
            if (owner != null && !Arrays.equals(owner, idBytes) && ownerIsLive(epk, owner)) {
                // the service's words first: clients (Spring Data's UniqueKeyPolicyIT) look for them
                throw ServiceException.conflict("Unique index constraint violation. Another item in the logical"
                        + " partition already has these values for the unique key " + keys.get(i).paths() + ".");
            }
            txn.put(key, idBytes);
        }
        if (expiresAt > 0) {
            txn.put(StoreKeys.ttl(c.containerId(), expiresAt, epk, id), NO_VALUE);
        }
    }

    /** Gives up what {@link #claim} recorded for the version {@code old} (parsed as {@code doc}). */
    void release(String epk, String id, StoredItem old, ObjectNode doc) {
        List<UniqueKey> keys = c.uniqueKeys();
        if (!keys.isEmpty()) {
            byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < keys.size(); i++) {
                byte[] key = StoreKeys.unique(c.containerId(), epk, i, uniqueValues(keys.get(i), doc));
                if (Arrays.equals(txn.get(key), idBytes)) {
                    txn.delete(key);
                }
            }
        }
        if (old.expiresAt() > 0) {
            txn.delete(StoreKeys.ttl(c.containerId(), old.expiresAt(), epk, id));
        }
    }

    /**
     * Replaces the item's index entries: the terms of the old version go, those of the new one come. Both count as
     * work (the service prices a replace as removal plus insertion); entries common to both stay untouched.
     */
    void updateTerms(String epk, String id, ObjectNode before, ObjectNode after) {
        if (!policy.isIndexing()) {
            return;
        }
        List<byte[]> removed = before == null ? List.of() : IndexTerms.of(policy, before);
        List<byte[]> added = after == null ? List.of() : IndexTerms.of(policy, after);
        // each composite index holds one entry per item as well, which the write maintains like a path's term
        int composites = policy.compositeIndexes().size();
        terms += removed.size() + added.size() + (before == null ? 0 : composites) + (after == null ? 0 : composites);
        if (removed.isEmpty() || added.isEmpty()) { // a create or a delete: nothing in common to look for
            for (byte[] t : removed) {
                txn.delete(StoreKeys.index(c.containerId(), t, epk, id));
            }
            for (byte[] t : added) {
                txn.put(StoreKeys.index(c.containerId(), t, epk, id), NO_VALUE);
            }
            return;
        }
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

    /**
     * Adds {@code delta} bytes and {@code items} items to the logical partition's size record ({@link PartitionSizes});
     * 403/1014 when a growth passes the limit.
     */
    void addSize(String epk, long delta, long items) {
        byte[] key = StoreKeys.partitionSize(c.containerId(), epk);
        byte[] record = txn.get(key);
        if (delta > 0 && PartitionSizes.bytes(record) + delta > limits.maxLogicalPartitionBytes()) {
            throw ServiceException.forbidden(SubStatus.LOGICAL_PARTITION_FULL, "Partition key reached maximum size"
                    + " of " + (limits.maxLogicalPartitionBytes() / (1024 * 1024 * 1024.0)) + " GB.");
        }
        byte[] updated = PartitionSizes.add(record, delta, items);
        if (updated == null) {
            txn.delete(key);
        } else {
            txn.put(key, updated);
        }
    }

    /** Removes a stored version and everything kept beside it. */
    void remove(String epk, String id, StoredItem old) {
        ObjectNode oldDoc = needsOldDocument() ? Json.parseObject(old.json(), "stored item") : null;
        release(epk, id, old, oldDoc);
        updateTerms(epk, id, oldDoc, null);
        addSize(epk, -old.bytes().length, -1);
        txn.delete(StoreKeys.item(c.containerId(), epk, id));
    }

    private boolean ownerIsLive(String epk, byte[] ownerId) {
        byte[] raw = txn.get(StoreKeys.item(c.containerId(), epk, new String(ownerId, StandardCharsets.UTF_8)));
        return raw != null && visible.sees(epk, StoredItem.wrap(raw));
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
}
