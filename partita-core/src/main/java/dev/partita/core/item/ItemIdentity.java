package dev.partita.core.item;

import dev.partita.core.partition.PartitionKeyValue;

/** An item's identity within a container: its id and its full partition key. */
public record ItemIdentity(String id, PartitionKeyValue partitionKey) {
}
