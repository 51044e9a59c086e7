package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.StoreReader;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A container's pending "delete all items of a partition key" requests: for each logical partition (its EPK), the LSN
 * of the latest request. Every item version written at or before that LSN is gone for reads, queries and the change
 * feed at once; the background removes it later ({@link Items#removeDeletedItems}). Items written afterwards, a
 * re-created id among them, are untouched. Immutable: a change makes a new set, published after its commit.
 */
public final class PartitionDeletes {
    public static final PartitionDeletes NONE = new PartitionDeletes(Map.of());

    private final Map<String, Long> cutoffs;

    private PartitionDeletes(Map<String, Long> cutoffs) {
        this.cutoffs = cutoffs;
    }

    /**
     * The pending deletes of a container as {@code store} (a snapshot, for a query or a feed page) holds them: they
     * agree with the items it holds, as one commit writes both.
     */
    public static PartitionDeletes load(StoreReader store, int containerId) {
        byte[][] range = StoreKeys.partitionDeletes(containerId);
        Map<String, Long> found = new HashMap<>();
        try (Cursor cur = store.scan(range[0], range[1])) {
            while (cur.next()) {
                found.put(StoreKeys.partitionDeleteEpk(cur.key()), Bytes.longValue(cur.value()));
            }
        }
        return found.isEmpty() ? NONE : new PartitionDeletes(Map.copyOf(found));
    }

    public boolean isEmpty() {
        return cutoffs.isEmpty();
    }

    /** Whether the item version stored at {@code epk} went with a delete of its partition. */
    public boolean hides(String epk, StoredItem item) {
        if (cutoffs.isEmpty()) {
            return false;
        }
        Long cutoff = cutoffs.get(epk);
        return cutoff != null && item.lsn() <= cutoff;
    }

    /** {@link #hides(String, StoredItem)} for an item known by its store key. */
    public boolean hides(byte[] itemKey, StoredItem item) {
        return !cutoffs.isEmpty() && hides(StoreKeys.itemEpk(itemKey), item);
    }

    /** The EPKs with a pending delete. */
    Set<String> partitions() {
        return cutoffs.keySet();
    }

    /** The LSN of the pending delete of {@code epk}, or 0 when there is none. */
    long cutoff(String epk) {
        return cutoffs.getOrDefault(epk, 0L);
    }

    PartitionDeletes with(String epk, long lsn) {
        Map<String, Long> next = new HashMap<>(cutoffs);
        next.put(epk, lsn);
        return new PartitionDeletes(Map.copyOf(next));
    }

    PartitionDeletes without(String epk) {
        Map<String, Long> next = new HashMap<>(cutoffs);
        next.remove(epk);
        return next.isEmpty() ? NONE : new PartitionDeletes(Map.copyOf(next));
    }
}
