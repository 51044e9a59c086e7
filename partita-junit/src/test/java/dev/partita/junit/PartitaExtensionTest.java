package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.PartitionKey;
import dev.partita.server.PartitaServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

@PartitaTest
class PartitaExtensionTest {

    @Test
    void injectsAReadyClientAgainstAnInProcessServer(CosmosClient client, PartitaServer server) {
        assertThat(server.endpoint()).startsWith("http://localhost:");
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
        CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
        orders.createItem(Map.of("id", "o1", "customerId", "c1", "total", 42));
        Map<?, ?> read = orders.readItem("o1", new PartitionKey("c1"), Map.class).getItem();
        assertThat(read.get("total")).isEqualTo(42);
    }
}
