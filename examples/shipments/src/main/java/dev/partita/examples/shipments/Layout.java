package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The two partition keys of the record, and the keys of a shipment under each. */
public enum Layout {
    /** Today's container: {@code /tenantId}; a tenant is one logical partition. */
    TENANT(List.of("/tenantId")),
    /** The recommendation: {@code /tenantId} then {@code /shipmentId}; a shipment is one logical partition. */
    TENANT_SHIPMENT(List.of("/tenantId", "/shipmentId"));

    private final List<String> paths;

    Layout(List<String> paths) {
        this.paths = paths;
    }

    public List<String> paths() {
        return paths;
    }

    public String label() {
        return String.join("+", paths);
    }

    public PartitionKeyDefinition definition() {
        PartitionKeyDefinition d = new PartitionKeyDefinition();
        d.setPaths(paths);
        d.setKind(paths.size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH);
        d.setVersion(PartitionKeyDefinitionVersion.V2);
        return d;
    }

    /** The full key of one shipment. */
    public PartitionKey key(String tenantId, String shipmentId) {
        return this == TENANT ? new PartitionKey(tenantId)
                : new PartitionKeyBuilder().add(tenantId).add(shipmentId).build();
    }

    public PartitionKey key(JsonNode shipment) {
        return key(shipment.get("tenantId").asText(), shipment.get("shipmentId").asText());
    }

    /** The key a tenant-only list passes: the whole key today, a prefix under the hierarchical key. */
    public PartitionKey tenantKey(String tenantId) {
        return this == TENANT ? new PartitionKey(tenantId) : new PartitionKeyBuilder().add(tenantId).build();
    }

    /**
     * Creates the container at {@code provisionRus} (which decides its physical partitions, as it does in the
     * service) and returns it; the caller lowers the throughput to the simulation's scale once it is loaded.
     */
    public CosmosContainer create(CosmosDatabase database, String name, int provisionRus) {
        database.createContainer(new CosmosContainerProperties(name, definition()),
                ThroughputProperties.createManualThroughput(provisionRus));
        return database.getContainer(name);
    }

    public static void setThroughput(CosmosContainer container, int rus) {
        container.replaceThroughput(ThroughputProperties.createManualThroughput(rus));
    }
}
