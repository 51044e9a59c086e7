package dev.partita.core.item;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.request.Conditions;
import java.util.List;

/**
 * The operations of a server-side script on its one logical partition, staged in one {@link WriteTxn}: each sees the
 * ones before it, and {@link Items#inPartitionTransaction} commits them all at once, with their index entries and
 * change-log records, or none. Every write is checked against the partition the request was routed to (400/1001).
 */
public final class PartitionTxn {
    private final WriteTxn txn;
    private final KeyRoute at;

    PartitionTxn(WriteTxn txn, KeyRoute at) {
        this.txn = txn;
        this.at = at;
    }

    /** The logical partition the script runs in. */
    public KeyRoute route() {
        return at;
    }

    public ItemResult create(ObjectNode doc) {
        return txn.create(at, doc, null);
    }

    public ItemResult upsert(ObjectNode doc, Conditions conditions) {
        return txn.upsert(at, doc, null, conditions);
    }

    public ItemResult replace(String id, ObjectNode doc, Conditions conditions) {
        return txn.replace(at, id, doc, null, conditions);
    }

    public ItemResult delete(String id, Conditions conditions) {
        return txn.delete(at, id, conditions);
    }

    public ItemResult read(String id, Conditions conditions) {
        return txn.read(at, id, conditions);
    }

    /** The partition's live items, the transaction's own writes included, in id order. */
    public List<StoredItem> items() {
        return txn.logicalPartition(at);
    }
}
