package dev.partita.core.partition;

import java.util.List;

/**
 * A physical partition (the SDK's "partition key range"): an EPK interval [minInclusive, maxExclusive) with the id
 * the SDK routes by, and the ids of the range it was split from.
 */
public record PhysicalPartition(String id, String minInclusive, String maxExclusive, List<String> parents) {
    public PhysicalPartition {
        parents = List.copyOf(parents);
    }

    public boolean contains(String epk) {
        return minInclusive.compareTo(epk) <= 0 && epk.compareTo(maxExclusive) < 0;
    }
}
