package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.Engine;
import org.junit.jupiter.api.Test;

/** The annotation's fault rules reach the server: the container they name answers 503, every other one does not. */
@PartitaTest(faults = "unavailable container=faulty/c")
class FaultsExtensionTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAnnotationsFaultsReachTheServer(CosmosClient client, Engine engine) {
        assertThat(engine.faults().list()).hasSize(1);
        client.createDatabaseIfNotExists("faulty");
        client.getDatabase("faulty").createContainerIfNotExists("c", "/pk");
        client.getDatabase("faulty").createContainerIfNotExists("fine", "/pk");
        CosmosContainer c = client.getDatabase("faulty").getContainer("c");
        assertThatThrownBy(() -> c.createItem(JSON.createObjectNode().put("id", "a").put("pk", "p")))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(503));
        CosmosContainer fine = client.getDatabase("faulty").getContainer("fine");
        fine.createItem(JSON.createObjectNode().put("id", "a").put("pk", "p"));
        assertThat(fine.readItem("a", new PartitionKey("p"), JsonNode.class).getStatusCode()).isEqualTo(200);
    }
}
