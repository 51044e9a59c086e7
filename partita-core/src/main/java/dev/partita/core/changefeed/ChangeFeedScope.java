package dev.partita.core.changefeed;

import dev.partita.core.partition.PartitionKeyValue;

/**
 * Which changes a change-feed read covers, as the SDK names them: one physical partition (by range id), optionally
 * narrowed to an EPK sub-range (a feed range smaller than a physical partition); an EPK range alone; one logical
 * partition or a hierarchical-key prefix (by partition key value); or, with nothing set, the whole container.
 *
 * @param rangeId      a partition key range id; a gone one (split) gets 410/1002
 * @param startEpk     lower EPK bound (inclusive), or null/empty for none
 * @param endEpk       upper EPK bound (exclusive), or null/empty for none
 * @param partitionKey a full partition key or a hierarchical-key prefix; takes precedence over the others
 */
public record ChangeFeedScope(String rangeId, String startEpk, String endEpk, PartitionKeyValue partitionKey) {
    public static final ChangeFeedScope CONTAINER = new ChangeFeedScope(null, null, null, null);

    public static ChangeFeedScope range(String rangeId) {
        return new ChangeFeedScope(rangeId, null, null, null);
    }

    public static ChangeFeedScope epkRange(String rangeId, String startEpk, String endEpk) {
        return new ChangeFeedScope(rangeId, startEpk, endEpk, null);
    }

    public static ChangeFeedScope partitionKey(PartitionKeyValue pk) {
        return new ChangeFeedScope(null, null, null, pk);
    }
}
