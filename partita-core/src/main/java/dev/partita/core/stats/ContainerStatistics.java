package dev.partita.core.stats;

import java.util.List;

/**
 * One container's partitions at one moment.
 *
 * @param databaseId  the database's id
 * @param containerId the container's id
 * @param nowMillis   when it was read (the engine's clock); the last second of every series is the second of this
 * @param seconds     how many seconds each per-second series covers
 * @param partitions  the current physical partitions in EPK order, then those that split within the series' seconds
 * @param splits      the splits the container went through, oldest first
 * @param topByRu     the logical partitions that consumed the most over the last one to two minutes, busiest first
 * @param topBySize   the largest logical partitions, largest first
 */
public record ContainerStatistics(String databaseId, String containerId, long nowMillis, int seconds,
        List<PartitionStatistics> partitions, List<SplitRecord> splits, List<LogicalPartitionUsage> topByRu,
        List<LogicalPartitionUsage> topBySize) {

    public ContainerStatistics {
        partitions = List.copyOf(partitions);
        splits = List.copyOf(splits);
        topByRu = List.copyOf(topByRu);
        topBySize = List.copyOf(topBySize);
    }
}
