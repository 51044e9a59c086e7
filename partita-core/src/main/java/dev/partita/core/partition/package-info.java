/**
 * Partitioning: partition key definitions ({@link dev.partita.core.partition.PartitionKeyDefinition}), partition key
 * values as the SDK sends them in {@code x-ms-documentdb-partitionkey} or as they are extracted from an item
 * ({@link dev.partita.core.partition.PartitionKeyValue}), the effective partition key (EPK) hashing of the service —
 * hash V1, hash V2 and MultiHash, bit for bit like the Java SDK
 * ({@link dev.partita.core.partition.EffectivePartitionKey}) — EPK intervals
 * ({@link dev.partita.core.partition.EpkRange}), split points ({@link dev.partita.core.partition.RangeBoundaries})
 * and the physical partitions of a container, and a full key routed once ({@link dev.partita.core.partition.KeyRoute}).
 * Pure functions and immutable values: no I/O, no clock, no store. It depends only on {@code error}, {@code limits}
 * and Jackson;
 * every other engine package (account, item, query, changefeed, capacity, store) may depend on it, and it must never
 * depend on them.
 */
package dev.partita.core.partition;
