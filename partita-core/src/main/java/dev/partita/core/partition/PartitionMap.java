package dev.partita.core.partition;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The physical partitions of a container, ordered by EPK and tiling "" .. "FF" exactly. Immutable. Plain string
 * comparison is enough: every EPK sorts below "FF" (V2 clears the top bits of its first byte, V1 starts with 05).
 */
public record PartitionMap(List<PhysicalPartition> partitions) {

    public PartitionMap {
        partitions = List.copyOf(partitions);
        String expect = "";
        for (PhysicalPartition p : partitions) {
            if (!p.minInclusive().equals(expect) || p.minInclusive().compareTo(p.maxExclusive()) >= 0) {
                throw new IllegalArgumentException("partitions must tile \"\"..\"FF\" in order");
            }
            expect = p.maxExclusive();
        }
        if (!EffectivePartitionKey.MAX.equals(expect)) {
            throw new IllegalArgumentException("partitions must end at \"FF\"");
        }
    }

    /** {@code n} partitions with ids "0".."n-1", split evenly over the key space of the definition. */
    public static PartitionMap initial(PartitionKeyDefinition definition, int n) {
        List<String> points = RangeBoundaries.even(definition, n);
        List<PhysicalPartition> parts = new ArrayList<>(n);
        String min = "";
        for (int i = 0; i < n; i++) {
            String max = i < points.size() ? points.get(i) : EffectivePartitionKey.MAX;
            parts.add(new PhysicalPartition(Integer.toString(i), min, max, List.of()));
            min = max;
        }
        return new PartitionMap(parts);
    }

    /** The partition owning an EPK. */
    public PhysicalPartition route(String epk) {
        int lo = 0;
        int hi = partitions.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (partitions.get(mid).minInclusive().compareTo(epk) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return partitions.get(lo);
    }

    /** The partition with this id, or a 410/1002 that sends the SDK to refresh its routing map. */
    public PhysicalPartition byId(String id) {
        for (PhysicalPartition p : partitions) {
            if (p.id().equals(id)) {
                return p;
            }
        }
        throw new ServiceException(410, SubStatus.PARTITION_KEY_RANGE_GONE,
                "The partition key range " + id + " is gone (it was split); refresh the partition key ranges.");
    }


    /** The partitions overlapping [min, max). */
    public List<PhysicalPartition> overlapping(String min, String max) {
        List<PhysicalPartition> out = new ArrayList<>();
        for (PhysicalPartition p : partitions) {
            if (p.maxExclusive().compareTo(min) > 0 && p.minInclusive().compareTo(max) < 0) {
                out.add(p);
            }
        }
        return out;
    }

    /** This map with {@code parent} replaced by two children split at {@code splitPoint}. */
    public PartitionMap split(String parentId, String splitPoint, String leftId, String rightId) {
        List<PhysicalPartition> out = new ArrayList<>(partitions.size() + 1);
        for (PhysicalPartition p : partitions) {
            if (p.id().equals(parentId)) {
                // the whole lineage, as the service does: a client that missed an intermediate split can still
                // drop every ancestor from its cached routing map
                List<String> lineage = new ArrayList<>(p.parents());
                lineage.add(parentId);
                out.add(new PhysicalPartition(leftId, p.minInclusive(), splitPoint, lineage));
                out.add(new PhysicalPartition(rightId, splitPoint, p.maxExclusive(), lineage));
            } else {
                out.add(p);
            }
        }
        return new PartitionMap(out);
    }

    public int size() {
        return partitions.size();
    }
}
