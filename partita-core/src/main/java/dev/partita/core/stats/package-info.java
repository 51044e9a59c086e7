/**
 * The read model of per-partition statistics, as the explorer's heat map and the metrics read it
 * ({@link dev.partita.core.Engine#statistics}): request units and 429s per second and in total, the budget, storage
 * and item counts of each physical partition, the splits, and the busiest and largest logical partitions. Plain
 * immutable records; a leaf package (it depends on nothing else in the engine), so the gateway may use it without
 * reaching into capacity.
 */
package dev.partita.core.stats;
