package dev.partita.examples.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.junit.PartitaTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The migration from per-endpoint containers, the marker, the layout guard, rollback and the listing. */
@PartitaTest
class MigrationTest {
    private TrackingFixture f;
    private LegacyLayout layout;
    private CosmosContainer orders;
    private CosmosContainer billing;

    @BeforeEach
    void setUp(CosmosClient client) {
        f = new TrackingFixture(client);
        f.database.createContainer(new CosmosContainerProperties("endpoint-orders", "/id"));
        f.database.createContainer(new CosmosContainerProperties("endpoint-billing", "/id"));
        orders = f.database.getContainer("endpoint-orders");
        billing = f.database.getContainer("endpoint-billing");
        for (int i = 0; i < 25; i++) {
            orders.createItem(legacyRow(i, i % 5 == 0 ? FailedMessage.RETRYING : FailedMessage.FAILED));
        }
        for (int i = 0; i < 7; i++) {
            billing.createItem(legacyRow(i, FailedMessage.FAILED));
        }
        layout = new LegacyLayout(f.database, "endpoint-");
    }

    @Test
    void migrationCopiesVerifiesAndConvergesWithoutWritingLegacyContainers() {
        Map<String, String> before = etags(orders);
        Migration migration = new Migration(layout, f.store);
        List<Migration.Outcome> first = migration.run();
        assertThat(first).extracting(Migration.Outcome::endpointId).containsExactlyInAnyOrder("orders", "billing");
        assertThat(f.store.endpoint("orders").countByStatus()).isEqualTo(Map.of("failed", 20L, "retrying", 5L));
        assertThat(f.store.endpoint("billing").countByStatus()).isEqualTo(Map.of("failed", 7L));

        List<Migration.Outcome> second = migration.run();
        assertThat(second).extracting(Migration.Outcome::rows).containsExactlyInAnyOrderElementsOf(
                first.stream().map(Migration.Outcome::rows).toList());
        assertThat(f.store.endpoint("orders").countByStatus()).isEqualTo(Map.of("failed", 20L, "retrying", 5L));
        assertThat(etags(orders)).isEqualTo(before);
        assertThat(layout.marks()).containsOnlyKeys("endpoint-orders", "endpoint-billing");
    }

    @Test
    void theApiStaysClosedUntilEveryLegacyContainerIsMigratedAndUnwrittenSince() throws Exception {
        Purges purges = new Purges(f.store, Clock.systemUTC(), 100);
        LayoutGuard guard = new LayoutGuard(layout, Clock.systemUTC(), Duration.ZERO);
        try (TrackingApi api = new TrackingApi(f.store, purges, guard, 0)) {
            assertThat(get(api, "/endpoints/orders/failed").statusCode()).isEqualTo(503);
            new Migration(layout, f.store).migrate("endpoint-orders");
            HttpResponse<String> half = get(api, "/endpoints/orders/failed");
            assertThat(half.statusCode()).isEqualTo(503);
            assertThat(half.body()).contains("endpoint-billing is not migrated");

            new Migration(layout, f.store).run();
            assertThat(get(api, "/endpoints/orders/failed").statusCode()).isEqualTo(200);
            assertThat(layout.listing()).extracting(LegacyLayout.Legacy::state)
                    .containsOnly(LegacyLayout.State.MIGRATED_SAFE_TO_DELETE);

            Thread.sleep(1_100); // _ts has one-second resolution: a write in the mark's own second is not "past" it
            billing.createItem(legacyRow(99, FailedMessage.FAILED));
            HttpResponse<String> written = get(api, "/endpoints/orders/failed");
            assertThat(written.statusCode()).isEqualTo(503);
            assertThat(written.body()).contains("endpoint-billing is written since migration");
            assertThat(layout.listing()).filteredOn(l -> l.container().equals("endpoint-billing"))
                    .extracting(LegacyLayout.Legacy::state).containsExactly(LegacyLayout.State.WRITTEN_SINCE_MIGRATION);

            new Migration(layout, f.store).run();
            assertThat(get(api, "/endpoints/orders/failed").statusCode()).isEqualTo(200);
            assertThat(f.store.endpoint("billing").countByStatus()).isEqualTo(Map.of("failed", 8L));

            layout.rollback();
            assertThat(get(api, "/endpoints/orders/failed").statusCode()).isEqualTo(503);
            assertThat(layout.listing()).extracting(LegacyLayout.Legacy::state)
                    .containsOnly(LegacyLayout.State.NOT_MIGRATED);
        } finally {
            purges.close();
        }
    }

    @Test
    void theReportComparesTheTwoLayoutsCosts() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TrackingReport.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("467.20").contains("35.04").contains("350.40");
    }

    private static Map<String, Object> legacyRow(int i, String status) {
        return Map.of("id", FailedMessage.idOf("evt" + i, "s1"), "eventId", "evt" + i, "sessionId", "s1",
                "status", status, "updatedAtTicks", 5_000 + i,
                "failure", Map.of("exceptionType", "System.Exception", "message", "boom", "attempts", 1));
    }

    private static Map<String, String> etags(CosmosContainer container) {
        Map<String, String> out = new TreeMap<>();
        container.queryItems("SELECT c.id, c._etag FROM c", new CosmosQueryRequestOptions(), JsonNode.class)
                .forEach(r -> out.put(r.path("id").asText(), r.path("_etag").asText()));
        return out;
    }

    private static HttpResponse<String> get(TrackingApi api, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(api.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
