/**
 * Capacity: {@link dev.partita.core.capacity.Work} (what an operation did) and {@link dev.partita.core.capacity.CostModel} (its
 * price in request units), and {@link dev.partita.core.capacity.Capacity}: the throughput each physical partition gets,
 * its {@link dev.partita.core.capacity.PartitionBudget} in one-second windows of the injected clock, burst capacity,
 * priority ({@link dev.partita.core.request.Priority}) and the 429s when enforcement is on; and
 * {@link dev.partita.core.capacity.PartitionStats}: per physical partition a {@link dev.partita.core.capacity.PartitionMeter}
 * (RU, budget and 429s per second, totals, the busiest logical partitions) fed where requests are admitted and
 * charged, and the splits (read through {@code Engine.statistics} by the explorer and the metrics).
 *
 * <p>May depend on {@code account}, {@code partition}, {@code request} and {@code limits} (to know a container's
 * throughput and ranges); nothing here touches the store. The engine's container handle admits a request after
 * routing it to its partition and charges the price afterwards.
 */
package dev.partita.core.capacity;
