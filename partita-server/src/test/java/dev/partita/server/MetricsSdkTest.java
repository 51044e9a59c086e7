package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /metrics} scraped after SDK traffic: the per-partition series carry exactly the charges the SDK reported. */
class MetricsSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern SAMPLE = Pattern.compile("^([a-z_]+)\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
    final TestClock clock = new TestClock();
    Engine engine;
    PartitaServer server;
    CosmosClient client;

    @BeforeEach
    void start() {
        engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY).gatewayMode()
                .endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient();
        client.createDatabase("shop");
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        engine.close();
    }

    @Test
    void perPartitionChargesEqualWhatTheSdkReported() throws Exception {
        // 12,000 RU/s: two physical partitions
        client.getDatabase("shop").createContainer(new CosmosContainerProperties("orders", "/tenant"),
                ThroughputProperties.createManualThroughput(12_000));
        CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
        double reported = 0;
        for (int i = 0; i < 40; i++) {
            ObjectNode doc = JSON.createObjectNode().put("id", "secret-id-" + i).put("tenant", "secret-tenant-" + i % 7);
            reported += orders.createItem(doc, new PartitionKey("secret-tenant-" + i % 7),
                    new CosmosItemRequestOptions()).getRequestCharge();
        }
        for (int i = 0; i < 10; i++) {
            reported += orders.readItem("secret-id-" + i, new PartitionKey("secret-tenant-" + i % 7), ObjectNode.class)
                    .getRequestCharge();
        }
        for (FeedResponse<ObjectNode> page : orders.queryItems("SELECT * FROM c WHERE c.tenant != 'x'",
                new CosmosQueryRequestOptions(), ObjectNode.class).iterableByPage()) {
            reported += page.getRequestCharge();
        }

        String text = scrape();
        Map<String, Double> charge = byPartition(text, "partita_partition_request_charge_total", "orders");
        assertThat(charge).containsOnlyKeys("0", "1");
        assertThat(charge.values()).allMatch(v -> v > 0);
        assertThat(charge.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(reported, within(1e-6));
        assertThat(byPartition(text, "partita_partition_items", "orders").values().stream()
                .mapToDouble(Double::doubleValue).sum()).isEqualTo(40.0);
        assertThat(byPartition(text, "partita_partition_storage_bytes", "orders").values()).allMatch(v -> v > 0);
        assertThat(byPartition(text, "partita_partition_budget_ru_per_second", "orders").values())
                .containsOnly(6000.0);
        assertThat(value(text, "partita_requests_total", "container=\"orders\"", "operation=\"create\"",
                "status=\"201\"")).isEqualTo(40.0);
        assertThat(value(text, "partita_request_duration_seconds_count", "operation=\"read\"")).isEqualTo(10.0);
        assertThat(text).contains("partita_request_duration_seconds_bucket{").contains("partita_container_splits_total");
        assertThat(text).as("no partition key values or item ids in the labels").doesNotContain("secret-");
    }

    @Test
    void throttledRequestsAndSplitsAreCounted() throws Exception {
        client.getDatabase("shop").createContainer(new CosmosContainerProperties("hot", "/tenant"),
                ThroughputProperties.createManualThroughput(400));
        engine.capacity().enforce(engine.readContainer("shop", "hot"), true);
        CosmosContainer hot = client.getDatabase("shop").getContainer("hot");
        int refused = 0;
        for (int i = 0; i < 150; i++) {
            try {
                hot.upsertItem(JSON.createObjectNode().put("id", "i" + i).put("tenant", "t"));
            } catch (CosmosException e) {
                assertThat(e.getStatusCode()).isEqualTo(429);
                refused++;
            }
        }
        assertThat(refused).isPositive();
        engine.split(engine.readContainer("shop", "hot"), "0");

        String text = scrape();
        assertThat(value(text, "partita_throttled_requests_total", "container=\"hot\"", "operation=\"upsert\""))
                .isEqualTo(refused);
        assertThat(value(text, "partita_requests_total", "container=\"hot\"", "status=\"429\"")).isEqualTo(refused);
        assertThat(value(text, "partita_container_splits_total", "container=\"hot\"")).isEqualTo(1.0);
        assertThat(byPartition(text, "partita_partition_request_charge_total", "hot"))
                .as("the split parent's series is gone, its children's are there").containsOnlyKeys("1", "2");
    }

    String scrape() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.endpoint() + "metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("readable without the account key").isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return r.body();
    }

    static Map<String, Double> byPartition(String text, String name, String container) {
        Map<String, Double> out = new HashMap<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(name) && m.group(2).contains("container=\"" + container + "\"")) {
                Matcher p = Pattern.compile("partition=\"([^\"]+)\"").matcher(m.group(2));
                assertThat(p.find()).isTrue();
                out.put(p.group(1), Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

    /** The sum of the samples of {@code name} whose labels contain every one of {@code labels}. */
    static double value(String text, String name, String... labels) {
        double sum = 0;
        Matcher m = SAMPLE.matcher(text);
        outer:
        while (m.find()) {
            if (!m.group(1).equals(name)) {
                continue;
            }
            for (String l : labels) {
                if (!m.group(2).contains(l)) {
                    continue outer;
                }
            }
            sum += Double.parseDouble(m.group(3));
        }
        return sum;
    }
}
