package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import dev.partita.core.limits.Limits;
import dev.partita.junit.PartitaTest;
import org.junit.jupiter.api.Test;

/**
 * Contoso's logical partition meets the 20 GB limit (403, sub-status 1014) under {@code /tenantId}, and the same
 * growth does not under {@code /tenantId}+{@code /shipmentId}. The storage limits are scaled 1/100,000 (20 GB: about
 * 210 KB), as {@code partita serve --limits-scale 1/100000} does; the example's code still sees only the SDK.
 */
@PartitaTest(limitsScale = LogicalPartitionLimitTest.SCALE)
class LogicalPartitionLimitTest {
    static final double SCALE = 1e-5;

    @Test
    void contosoHits403Slash1014UnderTheTenantKeyAndNotUnderTheHierarchicalKey(CosmosClient client) {
        client.createDatabaseIfNotExists("growth");
        long limit = Limits.DEFAULTS.scaled(SCALE).maxLogicalPartitionBytes();
        int enough = (int) (2 * limit / 1_000);
        PartitionGrowth.Outcome byTenant = grow(client, Layout.TENANT, enough);
        assertThat(byTenant.hitLimit()).as("403/1014 under /tenantId: " + byTenant).isTrue();
        assertThat(byTenant.bytes()).as("the shipments' JSON, before system properties").isBetween(limit / 2, limit);

        PartitionGrowth.Outcome byShipment = grow(client, Layout.TENANT_SHIPMENT, 2 * (int) byTenant.writes());
        assertThat(byShipment.hitLimit()).as("the ceiling is per shipment now").isFalse();
        assertThat(byShipment.bytes()).as("twice what filled Contoso's partition").isGreaterThan(limit);
    }

    private static PartitionGrowth.Outcome grow(CosmosClient client, Layout layout, int writes) {
        String name = "growth-" + layout.name().toLowerCase(java.util.Locale.ROOT);
        client.getDatabase("growth").createContainer(new CosmosContainerProperties(name, layout.definition()),
                ThroughputProperties.createManualThroughput(10_000));
        return PartitionGrowth.grow(client.getDatabase("growth").getContainer(name), layout, LoadModel.CONTOSO, 0,
                writes);
    }
}
