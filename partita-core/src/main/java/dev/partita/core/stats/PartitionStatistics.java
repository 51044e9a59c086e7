package dev.partita.core.stats;

import java.util.List;

/**
 * One physical partition.
 *
 * @param id                 its partition key range id
 * @param minInclusive       the lowest EPK it owns
 * @param maxExclusive       the EPK after the highest it owns
 * @param parents            the ranges it was split from, oldest first
 * @param live               false for a partition that has split (its history is kept; it serves nothing)
 * @param budgetRusPerSecond the RU/s it may serve now (once split: the last RU/s it served under, 0 if unknown)
 * @param ruPerSecond        request units charged each second, oldest first, the last entry the current second
 * @param budgetPerSecond    the RU/s each second's charges were made against (0: no charges that second)
 * @param throttledPerSecond requests refused with 429 each second, aligned with {@code ruPerSecond}
 * @param totalRu            request units charged since the engine started
 * @param totalThrottled     429s since the engine started
 * @param storageBytes       bytes its items take (0 once split)
 * @param itemCount          items it holds (0 once split)
 * @param logicalPartitions  distinct partition key values it holds (0 once split)
 */
public record PartitionStatistics(String id, String minInclusive, String maxExclusive, List<String> parents,
        boolean live, double budgetRusPerSecond, double[] ruPerSecond, double[] budgetPerSecond,
        long[] throttledPerSecond, double totalRu,
        long totalThrottled, long storageBytes, long itemCount, long logicalPartitions) {

    public PartitionStatistics {
        parents = List.copyOf(parents);
        ruPerSecond = ruPerSecond.clone();
        budgetPerSecond = budgetPerSecond.clone();
        throttledPerSecond = throttledPerSecond.clone();
    }

    @Override
    public double[] ruPerSecond() {
        return ruPerSecond.clone();
    }

    @Override
    public double[] budgetPerSecond() {
        return budgetPerSecond.clone();
    }

    @Override
    public long[] throttledPerSecond() {
        return throttledPerSecond.clone();
    }
}
