package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.request.ApiVersion;

/**
 * Containers created without a partition key: the service's legacy non-partitioned ("fixed") containers.
 *
 * <p>Only a request naming an API version before 2018-12-31 may create one (the current SDKs cannot; their body always
 * has a key, and the service answers 400 to one without). Such a container has one physical partition and at most
 * that partition's throughput. The current API shows it with the system key {@code /_partitionKey}
 * ({@link PartitionKeyDefinition#nonPartitioned()}): items without that property share the key {@code []}, which both
 * SDKs send for {@code PartitionKey.NONE} or an item without the property; items with it go to that logical partition.
 */
final class NonPartitionedContainers {

    private NonPartitionedContainers() {
    }

    /** True when this body creates a non-partitioned container: it has no key and the API version still allows it. */
    static boolean isRequested(ObjectNode body, ApiVersion version) {
        JsonNode pk = body.get("partitionKey");
        return (pk == null || pk.isNull()) && version.allowsNonPartitionedContainers();
    }

    /** A copy of the body with the system key, which is what the catalog stores and a read returns. */
    static ObjectNode withSystemKey(ObjectNode body) {
        ObjectNode copy = body.deepCopy();
        copy.set("partitionKey", PartitionKeyDefinition.nonPartitioned().toJson());
        return copy;
    }

    /**
     * Refuses throughput a single partition cannot serve, as the service does: a shared-throughput database, autoscale,
     * or more than one physical partition's RU/s each require a partition key.
     */
    static void checkThroughput(Throughput own, Throughput database, Limits limits) {
        if (!own.isProvisioned() && database.isProvisioned()) {
            throw ServiceException.badRequest("Shared throughput collection should have a partition key; give the "
                    + "container a 'partitionKey' definition.");
        }
        if (own.isAutoscale()) {
            throw ServiceException.badRequest("A container with autoscale throughput must have a 'partitionKey' "
                    + "definition.");
        }
        if (own.manualRus() > limits.maxPhysicalPartitionRus()) {
            throw ServiceException.badRequest("A container with more than " + limits.maxPhysicalPartitionRus()
                    + " RU/s must have a 'partitionKey' definition; a container without one has a single partition.");
        }
    }
}
