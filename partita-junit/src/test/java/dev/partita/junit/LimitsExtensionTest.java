package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import org.junit.jupiter.api.Test;

@PartitaTest(enforceCapacity = true, burstCapacity = true, limitsScale = 1e-6, limits = "maxItemBytes=4096")
class LimitsExtensionTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAnnotationsLimitsReachTheServer(CosmosClient client, Engine engine) {
        assertThat(engine.limits().maxLogicalPartitionBytes())
                .isEqualTo(Math.round(dev.partita.core.limits.Limits.DEFAULTS.maxLogicalPartitionBytes() * 1e-6));
        assertThat(engine.limits().maxItemBytes()).isEqualTo(4096);
        assertThat(engine.capacity().burstCapacityEnabled()).isTrue();
        client.createDatabaseIfNotExists("limits");
        client.getDatabase("limits").createContainerIfNotExists("c", "/pk");
        CosmosContainer c = client.getDatabase("limits").getContainer("c");
        ObjectNode big = JSON.createObjectNode().put("id", "big").put("pk", "p").put("text", "x".repeat(5_000));
        assertThatThrownBy(() -> c.createItem(big)).isInstanceOf(CosmosException.class)
                .satisfies(e -> assertThat(((CosmosException) e).getStatusCode()).isEqualTo(413));
    }
}
