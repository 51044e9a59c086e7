package dev.partita.core.request;

import dev.partita.core.limits.Limits;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.EpkRange;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PartitionMap;
import dev.partita.core.partition.PhysicalPartition;

/**
 * Where a query or a change-feed read runs, as the SDK names it: one physical partition (by range id), optionally
 * narrowed to an EPK sub-range (a hierarchical-key prefix or a feed range smaller than a partition); an EPK range
 * alone; one logical partition or a hierarchical-key prefix (by partition key value, which takes precedence); or,
 * with nothing set, the whole container.
 *
 * @param rangeId      a partition key range id; a gone one (split) is 410/1002
 * @param startEpk     lower EPK bound (inclusive), or null/empty for none
 * @param endEpk       upper EPK bound (exclusive), or null/empty for none
 * @param partitionKey a full partition key or a hierarchical-key prefix
 */
public record Scope(String rangeId, String startEpk, String endEpk, PartitionKeyValue partitionKey) {
    public static final Scope CONTAINER = new Scope(null, null, null, null);

    public Scope {
        rangeId = rangeId == null || rangeId.isBlank() ? null : rangeId.trim();
        startEpk = startEpk == null || startEpk.isEmpty() ? null : startEpk;
        endEpk = endEpk == null || endEpk.isEmpty() ? null : endEpk;
    }

    public static Scope range(String rangeId) {
        return new Scope(rangeId, null, null, null);
    }

    public static Scope epkRange(String rangeId, String startEpk, String endEpk) {
        return new Scope(rangeId, startEpk, endEpk, null);
    }

    public static Scope partitionKey(PartitionKeyValue pk) {
        return new Scope(null, null, null, pk);
    }

    /**
     * The EPKs this scope covers over a container's current partitions: one exact EPK (a full partition key) or an
     * interval, and the physical partition that serves it (for admission, pricing and the session token).
     *
     * @throws dev.partita.core.error.ServiceException 410/1002 for a gone range, 400 for an invalid key
     */
    public Target target(PartitionKeyDefinition definition, PartitionMap partitions, Limits limits) {
        if (partitionKey != null) {
            partitionKey.validateFor(definition, limits, false);
            String epk = EffectivePartitionKey.of(definition, partitionKey);
            PhysicalPartition owner = partitions.route(epk);
            // the empty key (valid only for a container without paths or with the system key) is a full key too
            return partitionKey.size() == definition.levels() || partitionKey.size() == 0
                    ? new Target(epk, new EpkRange(epk, epk), owner, false)
                    : new Target(null, EpkRange.forPrefix(epk), owner, false);
        }
        String min = EffectivePartitionKey.MIN;
        String max = EffectivePartitionKey.MAX;
        PhysicalPartition named = null;
        if (rangeId != null) {
            named = partitions.byId(rangeId);
            min = named.minInclusive();
            max = named.maxExclusive();
        }
        if (startEpk != null && startEpk.compareTo(min) > 0) {
            min = startEpk;
        }
        if (endEpk != null && endEpk.compareTo(max) < 0) {
            max = endEpk;
        }
        if (min.compareTo(max) > 0) {
            max = min;
        }
        boolean whole = named == null && startEpk == null && endEpk == null;
        return new Target(null, new EpkRange(min, max), named != null ? named : partitions.route(min), whole);
    }

    /**
     * A resolved scope.
     *
     * @param exactEpk  the EPK of a full partition key, or null for an interval
     * @param range     the EPK interval covered (for an exact EPK, the empty range at it)
     * @param owner     the physical partition that serves the scope (for an interval spanning several, the first)
     * @param container true when the scope is the whole container (several partitions at once)
     */
    public record Target(String exactEpk, EpkRange range, PhysicalPartition owner, boolean container) {
        public boolean matches(String epk) {
            return exactEpk != null ? exactEpk.equals(epk) : range.contains(epk);
        }
    }
}
