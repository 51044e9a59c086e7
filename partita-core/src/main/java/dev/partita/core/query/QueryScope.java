package dev.partita.core.query;

import dev.partita.core.partition.PartitionKeyValue;

/**
 * Where a query runs: one physical partition (by range id, optionally narrowed to an EPK sub-range, as the SDK sends
 * for hierarchical-key prefixes and feed ranges), one logical partition (by its key, full or a hierarchical prefix),
 * or, with neither, the whole container.
 */
public record QueryScope(String rangeId, String startEpk, String endEpk, PartitionKeyValue partitionKey) {
    public static final QueryScope CONTAINER = new QueryScope(null, null, null, null);

    public static QueryScope range(String rangeId) {
        return new QueryScope(rangeId, null, null, null);
    }

    public static QueryScope partitionKey(PartitionKeyValue pk) {
        return new QueryScope(null, null, null, pk);
    }
}
