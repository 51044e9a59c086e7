package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.models.ThroughputProperties;
import dev.partita.core.Engine;
import org.junit.jupiter.api.Test;

@PartitaTest(enforceCapacity = true)
class EnforcedCapacityExtensionTest {

    @Test
    void theOptionTurnsCapacityEnforcementOn(CosmosClient client, Engine engine) {
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists("orders", "/customerId",
                ThroughputProperties.createManualThroughput(400));
        assertThat(engine.capacity().isEnforced(engine.readContainer("shop", "orders"))).isTrue();
    }
}
