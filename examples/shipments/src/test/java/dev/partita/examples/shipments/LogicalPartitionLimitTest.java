package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import dev.partita.core.Engine;
import dev.partita.core.capacity.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Contoso's logical partition meets the 20 GB limit (403, sub-status 1014) under {@code /tenantId}, and the same
 * growth does not under {@code /tenantId}+{@code /shipmentId}. The extension's server keeps the real 20 GB, so this
 * test starts its own with the storage limits scaled 1/100,000 (20 GB: about 210 KB), as
 * {@code partita serve --limits-scale 1/100000} does; the example's code still sees only the SDK.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogicalPartitionLimitTest {
    static final double SCALE = 1e-5;
    Engine engine;
    PartitaServer server;
    CosmosClient client;

    @BeforeAll
    void start() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS.scaled(SCALE));
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.emulator().primary()).gatewayMode()
                .endpointDiscoveryEnabled(false).buildClient();
        client.createDatabase("growth");
    }

    @AfterAll
    void stop() {
        client.close();
        server.close();
        engine.close();
    }

    @Test
    void contosoHits403Slash1014UnderTheTenantKeyAndNotUnderTheHierarchicalKey() {
        long limit = Limits.DEFAULTS.scaled(SCALE).maxLogicalPartitionBytes();
        int enough = (int) (2 * limit / 1_000);
        PartitionGrowth.Outcome byTenant = grow(Layout.TENANT, enough);
        assertThat(byTenant.hitLimit()).as("403/1014 under /tenantId: " + byTenant).isTrue();
        assertThat(byTenant.bytes()).as("the shipments' JSON, before system properties").isBetween(limit / 2, limit);

        PartitionGrowth.Outcome byShipment = grow(Layout.TENANT_SHIPMENT, 2 * (int) byTenant.writes());
        assertThat(byShipment.hitLimit()).as("the ceiling is per shipment now").isFalse();
        assertThat(byShipment.bytes()).as("twice what filled Contoso's partition").isGreaterThan(limit);
    }

    private PartitionGrowth.Outcome grow(Layout layout, int writes) {
        String name = "growth-" + layout.name().toLowerCase(java.util.Locale.ROOT);
        client.getDatabase("growth").createContainer(new CosmosContainerProperties(name, layout.definition()),
                ThroughputProperties.createManualThroughput(10_000));
        return PartitionGrowth.grow(client.getDatabase("growth").getContainer(name), layout, LoadModel.CONTOSO, 0,
                writes);
    }
}
