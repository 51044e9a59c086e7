package dev.partita.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import dev.partita.core.Engine;
import org.junit.jupiter.api.Test;

@PartitaTest
class DefaultCapacityExtensionTest {

    @Test
    void capacityEnforcementIsOffByDefault(CosmosClient client, Engine engine) {
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
        assertThat(engine.capacity().isEnforced(engine.readContainer("shop", "orders"))).isFalse();
    }
}
