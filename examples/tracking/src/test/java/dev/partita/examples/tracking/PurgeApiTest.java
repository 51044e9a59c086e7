package dev.partita.examples.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.junit.PartitaTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Purge as a background operation behind the HTTP API: 202 and a status location, 409 while it runs. */
@PartitaTest
class PurgeApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private TrackingFixture f;
    private Purges purges;
    private TrackingApi api;

    @BeforeEach
    void setUp(CosmosClient client) throws Exception {
        f = new TrackingFixture(client);
        for (int i = 0; i < 30; i++) {
            f.store.endpoint("orders").upsert(TrackingFixture.row(i, FailedMessage.FAILED, i));
        }
        for (int i = 0; i < 5; i++) {
            f.store.endpoint("orders-eu").upsert(TrackingFixture.row(i, FailedMessage.FAILED, i));
        }
        purges = new Purges(f.store, Clock.systemUTC(), 40);
        LayoutGuard guard = new LayoutGuard(new LegacyLayout(f.database, "endpoint-"), Clock.systemUTC(),
                Duration.ZERO);
        api = new TrackingApi(f.store, purges, guard, 0);
    }

    @AfterEach
    void tearDown() {
        api.close();
        purges.close();
    }

    @Test
    void aPurgeIsAcceptedRunsInTheBackgroundAndRefusesASecondOne() throws Exception {
        HttpResponse<String> accepted = send("POST", "/endpoints/orders/purge");
        assertThat(accepted.statusCode()).isEqualTo(202);
        String location = accepted.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("/purges/");

        HttpResponse<String> conflict = send("POST", "/endpoints/orders/purge");
        assertThat(conflict.statusCode()).isEqualTo(409);
        assertThat(conflict.headers().firstValue("Location")).contains(location);

        JsonNode status = JSON.readTree(send("GET", location).body());
        long deadline = System.currentTimeMillis() + 60_000;
        while (!"COMPLETED".equals(status.path("state").asText()) && System.currentTimeMillis() < deadline) {
            assertThat(status.path("state").asText()).isEqualTo("RUNNING");
            Thread.sleep(100);
            status = JSON.readTree(send("GET", location).body());
        }
        assertThat(status.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(status.path("deleted").asLong()).isEqualTo(30);
        assertThat(f.store.endpoint("orders").countByStatus()).isEmpty();
        assertThat(f.store.endpoint("orders-eu").countByStatus()).isEqualTo(Map.of("failed", 5L));
        assertThat(send("POST", "/endpoints/orders/purge").statusCode()).isEqualTo(202);
    }

    @Test
    void theApiServesAnEndpointsFailedRowsAndUnknownPurgesAre404() throws Exception {
        HttpResponse<String> page = send("GET", "/endpoints/orders-eu/failed?pageSize=2");
        assertThat(page.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(page.body());
        assertThat(body.path("rows")).hasSize(2);
        assertThat(body.path("continuation").isTextual()).isTrue();
        assertThat(send("GET", "/purges/nope").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
