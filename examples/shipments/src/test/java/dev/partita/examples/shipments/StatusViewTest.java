package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.junit.PartitaTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The dashboard's materialized view, fed by either change-feed mode, and its delete edge case. */
@PartitaTest
class StatusViewTest {
    CosmosDatabase db;
    CosmosContainer shipments;

    @BeforeEach
    void setUp(CosmosClient client) {
        String name = "dashboard-" + UUID.randomUUID().toString().substring(0, 8);
        client.createDatabase(name);
        db = client.getDatabase(name);
        CosmosContainerProperties p = new CosmosContainerProperties("shipments", Layout.TENANT_SHIPMENT.definition());
        p.setDefaultTimeToLiveInSeconds(-1); // TTL on, per shipment
        db.createContainer(p, ThroughputProperties.createManualThroughput(12_000));
        shipments = db.getContainer("shipments");
    }

    private void write(String tenant, int n) {
        ObjectNode s = Shipment.of(tenant, n);
        shipments.upsertItem(s, Layout.TENANT_SHIPMENT.key(s), new CosmosItemRequestOptions());
    }

    @Test
    void theViewAnswersTheDashboardFromOnePartitionInOrderAndFollowsStatusChanges() {
        StatusView view = new StatusView(shipments, Layout.TENANT_SHIPMENT, db, "shipmentStatus",
                StatusView.Feed.LATEST_VERSION);
        for (int t = 0; t < 3; t++) {
            for (int n = 0; n < 24; n++) {
                write("tenant-" + t, n);
            }
        }
        assertThat(view.catchUp()).isEqualTo(72);
        StatusView.Dashboard fromView = view.dashboard();
        StatusView.Dashboard fanOut = StatusView.dashboardOnShipments(shipments);
        assertThat(fromView.rows()).hasSize(18); // n % 4 == 2: a quarter delayed
        assertThat(fromView.rows().stream().map(r -> r.get("id").asText()).toList())
                .isEqualTo(fanOut.rows().stream().map(r -> r.get("id").asText()).toList());
        List<String> created = fromView.rows().stream().map(r -> r.get("createdAt").asText()).toList();
        assertThat(created).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(fromView.rows().get(0).has("origin")).as("the view carries only the small row").isFalse();
        assertThat(fromView.charge()).as("one partition instead of a fan-out").isLessThan(fanOut.charge());

        // a delayed shipment is delivered: its row moves out of 'Delayed'
        ObjectNode s = Shipment.of("tenant-1", 2);
        s.put("status", "Delivered");
        shipments.upsertItem(s, Layout.TENANT_SHIPMENT.key(s), new CosmosItemRequestOptions());
        view.catchUp();
        assertThat(view.dashboard().rows()).hasSize(17).noneMatch(r -> r.get("id").asText().equals("tenant-1-s2"));
    }

    @Test
    void aDeletedOrExpiredShipmentLingersAsAPhantomRowOnlyWithTheLatestVersionFeed() throws Exception {
        StatusView latest = new StatusView(shipments, Layout.TENANT_SHIPMENT, db, "shipmentStatus",
                StatusView.Feed.LATEST_VERSION);
        StatusView all = new StatusView(shipments, Layout.TENANT_SHIPMENT, db, "shipmentStatus-avad",
                StatusView.Feed.ALL_VERSIONS_AND_DELETES);
        for (int n = 0; n < 16; n++) {
            write("tenant-0", n);
        }
        latest.catchUp();
        all.catchUp();
        assertThat(latest.dashboard().rows()).hasSize(4);
        assertThat(all.dashboard().rows()).hasSize(4);

        shipments.deleteItem(Shipment.of("tenant-0", 2), new CosmosItemRequestOptions());
        ObjectNode expiring = Shipment.of("tenant-0", 6);
        expiring.put("ttl", 1);
        shipments.upsertItem(expiring, Layout.TENANT_SHIPMENT.key(expiring), new CosmosItemRequestOptions());
        // the one wait of the module: expiry runs on the server's real clock
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (StatusView.dashboardOnShipments(shipments).rows().size() > 2 && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertThat(StatusView.dashboardOnShipments(shipments).rows()).hasSize(2);
        Thread.sleep(1_500); // the purge that writes the expiry's delete runs every second
        latest.catchUp();
        all.catchUp();

        List<String> phantom = ids(latest.dashboard().rows());
        assertThat(phantom).as("latest version: the deleted and the expired shipment stay 'Delayed'")
                .contains("tenant-0-s2", "tenant-0-s6").hasSize(4);
        assertThat(ids(all.dashboard().rows())).as("all versions and deletes: the view is right")
                .containsExactlyInAnyOrder("tenant-0-s10", "tenant-0-s14");
    }

    private static List<String> ids(List<JsonNode> rows) {
        return rows.stream().map(r -> r.get("id").asText()).toList();
    }
}
