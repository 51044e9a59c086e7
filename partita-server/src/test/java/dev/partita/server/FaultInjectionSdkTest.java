package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.fault.FaultRule;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Injected faults, as a user's retry logic meets them through the official Java SDK (4.81, gateway mode): 429 with a
 * retry-after is retried by the SDK's own policy and the call succeeds; a gone partition (410/1002) is followed by the
 * SDK on query pages and handed to the caller on point reads; 503 and 408 are retried by the SDK or reach the caller,
 * whose retry then succeeds; a delay makes the answer late; the control API adds, lists and clears rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultInjectionSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("f");
        client.getDatabase("f").createContainer("c", "/pk");
        c = client.getDatabase("f").getContainer("c");
        c.createItem(JSON.createObjectNode().put("id", "a").put("pk", "p"));
    }

    @AfterEach
    void clear() {
        t.engine.faults().clear();
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private CosmosItemResponse<JsonNode> read() {
        return c.readItem("a", new PartitionKey("p"), JsonNode.class);
    }

    private long left() {
        return t.engine.faults().list().get(0).count();
    }

    private static FaultRule rule(FaultRule.Kind kind, int count, Duration retryAfter) {
        return new FaultRule(kind, "f/c", null, 1.0, count, retryAfter);
    }

    @Test
    void throttlingIsRetriedByTheSdkAfterTheRetryAfter() {
        t.engine.faults().add(rule(FaultRule.Kind.THROTTLE, 3, Duration.ofMillis(20)));
        CosmosItemResponse<JsonNode> r = read();
        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(left()).as("the SDK went through all three 429s").isZero();
        assertThat(r.getDiagnostics().toString()).contains("429");
    }

    /**
     * A gone partition on a query page (sent to a range) makes the SDK refresh its ranges and retry; on a point
     * operation, which in gateway mode names no range, the SDK hands the 410 to the caller.
     */
    @Test
    void aGonePartitionIsRefreshedAndRetriedByTheSdkOnQueriesAndReachesTheCallerOnPointReads() {
        t.engine.faults().add(new FaultRule(FaultRule.Kind.GONE, "f/c", "0", 1.0, 1, Duration.ZERO));
        assertThat(c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), JsonNode.class).stream()
                .count()).isEqualTo(1);
        assertThat(left()).isZero();
        t.engine.faults().clear();
        t.engine.faults().add(rule(FaultRule.Kind.GONE, 1, Duration.ZERO));
        assertThat(retrying(this::read, 410).getStatusCode()).isEqualTo(200);
        assertThat(left()).isZero();
    }

    @Test
    void unavailableAndTimeoutReachTheCallerAndARetrySucceeds() {
        for (FaultRule.Kind kind : new FaultRule.Kind[] {FaultRule.Kind.UNAVAILABLE, FaultRule.Kind.TIMEOUT}) {
            t.engine.faults().clear();
            t.engine.faults().add(rule(kind, 1, Duration.ZERO));
            int expected = kind == FaultRule.Kind.UNAVAILABLE ? 503 : 408;
            assertThat(retrying(this::read, expected).getStatusCode()).as(kind.name()).isEqualTo(200);
            assertThat(left()).isZero();
        }
    }

    /** A caller's own retry: the SDK either retried the fault itself or handed it over with its status. */
    private static <T> T retrying(Supplier<T> call, int expectedStatus) {
        try {
            return call.get();
        } catch (CosmosException e) {
            assertThat(e.getStatusCode()).isEqualTo(expectedStatus);
            return call.get();
        }
    }

    @Test
    void aDelayMakesTheAnswerLate() {
        t.engine.faults().add(rule(FaultRule.Kind.DELAY, 1, Duration.ofMillis(300)));
        long start = System.nanoTime();
        assertThat(read().getStatusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms, at least the delay").isGreaterThanOrEqualTo(300);
    }

    @Test
    void faultsAreScopedToTheirContainer() {
        client.getDatabase("f").createContainerIfNotExists("other", "/pk");
        CosmosContainer other = client.getDatabase("f").getContainer("other");
        other.createItem(JSON.createObjectNode().put("id", "b").put("pk", "p"));
        t.engine.faults().add(new FaultRule(FaultRule.Kind.UNAVAILABLE, "f/c", null, 1.0, -1, Duration.ZERO));
        assertThat(other.readItem("b", new PartitionKey("p"), JsonNode.class).getStatusCode()).isEqualTo(200);
    }

    @Test
    void theControlApiAddsListsAndClearsRules() throws Exception {
        RawClient raw = new RawClient(t.server.endpoint());
        HttpResponse<String> added = raw.call("POST", "/_partita/faults").signed("", "")
                .body("{\"kind\":\"throttle\",\"container\":\"f/c\",\"count\":2,\"retryAfterMs\":10}").send();
        assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
        HttpResponse<String> listed = raw.call("GET", "/_partita/faults").signed("", "").send();
        assertThat(JSON.readTree(listed.body()).get("Faults")).hasSize(1);
        assertThat(read().getStatusCode()).isEqualTo(200);
        assertThat(raw.call("DELETE", "/_partita/faults").signed("", "").send().statusCode()).isEqualTo(204);
        assertThat(t.engine.faults().list()).isEmpty();
        assertThat(raw.call("POST", "/_partita/faults").signed("", "").body("{\"kind\":\"bogus\"}").send()
                .statusCode()).isEqualTo(400);
    }
}
