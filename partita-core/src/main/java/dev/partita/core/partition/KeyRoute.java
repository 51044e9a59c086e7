package dev.partita.core.partition;

import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;

/**
 * A full partition key routed once: its effective partition key and the physical partition that owns it. Point
 * operations compute this at the start of a request and carry it through admission, the write and the reply.
 *
 * @param key   the partition key value, validated for the container's definition
 * @param epk   its effective partition key
 * @param range the physical partition whose key interval holds {@code epk}
 */
public record KeyRoute(PartitionKeyValue key, String epk, PhysicalPartition range) {

    /**
     * Validates a full partition key for a point operation and routes it. In a system-key (non-partitioned) container
     * a request without a key means {@link PartitionKeyValue#EMPTY}, the key of its items without
     * {@code _partitionKey}: clients of the old API never send one there.
     *
     * @throws ServiceException 400 when the key is missing or does not fit the definition
     */
    public static KeyRoute of(PartitionKeyDefinition definition, PartitionMap partitions, PartitionKeyValue pk,
            Limits limits) {
        if (pk == null && definition.systemKey()) {
            pk = PartitionKeyValue.EMPTY;
        }
        if (pk == null) {
            throw ServiceException.badRequest("This operation needs the partition key (x-ms-documentdb-partitionkey).");
        }
        pk.validateFor(definition, limits, true);
        String epk = EffectivePartitionKey.of(definition, pk);
        return new KeyRoute(pk, epk, partitions.route(epk));
    }
}
