package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

@PartitaTest(defaultConsistency = ConsistencyLevel.STRONG)
class StrongAccountExtensionTest {

    @Test
    void readsAtTheAccountsStrongLevelCostDoubleAndMayRelaxIt(CosmosClient client) {
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
        CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
        ObjectNode order = JsonNodeFactory.instance.objectNode().put("id", "o1").put("customerId", "c1");
        orders.createItem(order);
        assertThat(orders.readItem("o1", new PartitionKey("c1"), ObjectNode.class).getRequestCharge())
                .isEqualTo(2.0);
        CosmosItemRequestOptions eventual = new CosmosItemRequestOptions();
        eventual.setConsistencyLevel(ConsistencyLevel.EVENTUAL);
        assertThat(orders.readItem("o1", new PartitionKey("c1"), eventual, ObjectNode.class).getRequestCharge())
                .isEqualTo(1.0);
    }
}
