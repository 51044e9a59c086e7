package dev.partita.examples.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.ThroughputProperties;
import dev.partita.junit.PartitaTest;
import dev.partita.server.PartitaServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With capacity enforcement on, the tracking store's low-priority work (searches, purges, migration) is throttled
 * before the resolver's high-priority writes when the endpoint's partition runs out of request units.
 */
@PartitaTest(enforceCapacity = true)
class PriorityTest {
    static final String KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    @Test
    void lowPriorityIsThrottledFirst(PartitaServer server) {
        // the SDK's own 429 retries are off, so every throttle is seen
        try (CosmosClient client = new CosmosClientBuilder().endpoint(server.endpoint()).key(KEY).gatewayMode()
                .endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient()) {
            client.createDatabase("priority");
            TrackingStore store = new TrackingStore(TrackingStore.create(client.getDatabase("priority"),
                    ThroughputProperties.createManualThroughput(400)), new QueryLog());
            EndpointScope orders = store.endpoint("orders");
            List<String> throttled = new ArrayList<>();
            int lowThrottled = 0;
            int highThrottled = 0;
            for (int i = 0; i < 150; i++) {
                try {
                    orders.upsert(TrackingFixture.row(i, FailedMessage.FAILED, i));
                } catch (CosmosException e) {
                    assertThat(e.getStatusCode()).isEqualTo(429);
                    highThrottled++;
                    throttled.add("high");
                }
                try {
                    orders.search(FailedMessage.FAILED, 10, null);
                } catch (CosmosException e) {
                    assertThat(e.getStatusCode()).isEqualTo(429);
                    lowThrottled++;
                    throttled.add("low");
                }
            }
            assertThat(throttled).as("the budget ran out at least once").isNotEmpty();
            assertThat(throttled.get(0)).as("the first request refused").isEqualTo("low");
            assertThat(lowThrottled).isGreaterThan(highThrottled);
        }
    }

    @Test
    void aHotEndpointIsCappedAtItsPartitionsShare(PartitaServer server) {
        try (CosmosClient client = new CosmosClientBuilder().endpoint(server.endpoint()).key(KEY).gatewayMode()
                .endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient()) {
            int seconds = 2;
            HotEndpoint.Result r = HotEndpoint.measure(client, 400, java.time.Duration.ofSeconds(seconds));
            assertThat(r.hotThrottled()).as("the hot endpoint meets the ceiling: " + r).isPositive();
            // The budget is per one-second window: a run of N seconds that starts inside a window touches N + 1 of
            // them, and each writer may be admitted once more before the last window's charges land (a debt).
            double hotTotal = r.hotRuPerSecond() * seconds;
            double meanWrite = hotTotal / r.hotWrites();
            double ceiling = r.shareRuPerSecond() * (seconds + 1) + HotEndpoint.HOT_WRITERS * meanWrite * 1.5;
            assertThat(hotTotal).as("RU spent by the hot endpoint: " + r).isLessThanOrEqualTo(ceiling);
            // throttled means some window's budget ran out; half a window's share is a floor even a slow machine
            // clears, and it still fails if the writes never got going
            assertThat(hotTotal).as("it spent a window's budget").isGreaterThan(r.shareRuPerSecond() * 0.5);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            TrackingReport.printHotEndpoint(new java.io.PrintStream(out, true), r);
            assertThat(out.toString()).contains("hot endpoint:").contains("partition's share of 400 RU/s");
        }
    }
}
