package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.ChangeFeedProcessorBuilder;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosAsyncDatabase;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.ChangeFeedProcessorOptions;
import com.azure.cosmos.models.ChangeFeedProcessorState;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The SDK's change feed processor (EPK leases, latest-version and all-versions handlers) with its lease container on
 * Partita: two hosts share the leases, one stops and the other takes over without losing changes, and processing
 * continues across a split. Lease timings are a few seconds so the test is quick.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeFeedProcessorTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = Duration.ofSeconds(60);
    TestServers t;
    CosmosAsyncClient client;
    CosmosAsyncDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        // the lease client must return the stored document on writes (the builder refuses it otherwise)
        client = t.builder(Keys.EMULATOR_PRIMARY).contentResponseOnWriteEnabled(true).buildAsyncClient();
        client.createDatabase("cfp").block();
        db = client.getDatabase("cfp");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private CosmosAsyncContainer container(String name, String pkPath, int ranges) {
        db.createContainer(new CosmosContainerProperties(name, pkPath),
                ThroughputProperties.createManualThroughput(ranges * 6000)).block();
        return db.getContainer(name);
    }

    static ChangeFeedProcessorOptions quickLeases() {
        return new ChangeFeedProcessorOptions()
                .setLeaseRenewInterval(Duration.ofMillis(500))
                .setLeaseAcquireInterval(Duration.ofMillis(500))
                .setLeaseExpirationInterval(Duration.ofSeconds(3))
                .setFeedPollDelay(Duration.ofMillis(100))
                .setStartFromBeginning(true);
    }

    /** A latest-version processor that records, per host, the ids it was handed. */
    private ChangeFeedProcessor processor(String host, CosmosAsyncContainer feed, CosmosAsyncContainer leases,
            Map<String, Set<String>> seen) {
        Set<String> mine = seen.computeIfAbsent(host, h -> ConcurrentHashMap.newKeySet());
        return new ChangeFeedProcessorBuilder()
                .hostName(host)
                .feedContainer(feed)
                .leaseContainer(leases)
                .handleLatestVersionChanges((List<ChangeFeedProcessorItem> items) -> items.forEach(
                        i -> mine.add(i.getCurrent().get("id").asText())))
                .options(quickLeases())
                .buildChangeFeedProcessor();
    }

    private static void write(CosmosAsyncContainer c, int from, int to) {
        for (int i = from; i < to; i++) {
            c.createItem(JSON.createObjectNode().put("id", "i" + i).put("pk", "k" + i)).block();
        }
    }

    private static Set<String> ids(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "i" + i).collect(Collectors.toSet());
    }

    private static Set<String> union(Map<String, Set<String>> seen) {
        Set<String> all = new HashSet<>();
        seen.values().forEach(all::addAll);
        return all;
    }

    /** The owners of the processor's leases, as the lease documents say. */
    private static Map<String, Long> owners(CosmosAsyncContainer leases) {
        return leases.queryItems("SELECT * FROM c WHERE IS_DEFINED(c.LeaseToken)", new CosmosQueryRequestOptions(),
                        ObjectNode.class).collectList().block().stream()
                .collect(Collectors.groupingBy(n -> n.path("Owner").asText("none"), Collectors.counting()));
    }

    private static void stopIfStarted(ChangeFeedProcessor p) {
        if (p.isStarted()) {
            p.stop().block();
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void twoHostsShareTheLeasesAndOneTakesOverWhenTheOtherStops() {
        CosmosAsyncContainer feed = container("orders", "/pk", 3);
        CosmosAsyncContainer leases = container("leases", "/id", 1);
        Map<String, Set<String>> seen = new ConcurrentHashMap<>();
        ChangeFeedProcessor a = processor("hostA", feed, leases, seen);
        ChangeFeedProcessor b = processor("hostB", feed, leases, seen);
        a.start().block();
        try {
            write(feed, 0, 30);
            await("host A saw the first 30", () -> seen.get("hostA").containsAll(ids(0, 30)));
            assertThat(owners(leases)).isEqualTo(Map.of("hostA", 3L));

            b.start().block();
            await("host B holds a lease", () -> owners(leases).getOrDefault("hostB", 0L) >= 1);
            write(feed, 30, 60);
            await("the hosts saw the next 30", () -> union(seen).containsAll(ids(30, 60)));
            assertThat(seen.get("hostB")).as("host B processed its ranges").isNotEmpty();

            a.stop().block();
            await("host B took over every lease", () -> owners(leases).equals(Map.of("hostB", 3L)));
            Set<String> beforeTakeover = new HashSet<>(seen.get("hostB"));
            write(feed, 60, 90);
            await("host B saw the last 30", () -> seen.get("hostB").containsAll(ids(60, 90)));
            assertThat(union(seen)).as("nothing lost").containsAll(ids(0, 90));
            assertThat(beforeTakeover).doesNotContainAnyElementsOf(ids(60, 90));
        } finally {
            stopIfStarted(a);
            stopIfStarted(b);
        }
    }

    @Test
    void processingContinuesAcrossASplit() {
        CosmosAsyncContainer feed = container("splitting", "/pk", 2);
        CosmosAsyncContainer leases = container("splitting-leases", "/id", 1);
        Map<String, Set<String>> seen = new ConcurrentHashMap<>();
        ChangeFeedProcessor a = processor("hostA", feed, leases, seen);
        a.start().block();
        try {
            write(feed, 0, 40);
            await("the first 40", () -> seen.get("hostA").containsAll(ids(0, 40)));
            assertThat(owners(leases)).isEqualTo(Map.of("hostA", 2L));

            t.engine.split(t.engine.readContainer("cfp", "splitting"), "0");
            write(feed, 40, 80);
            await("the 40 written after the split", () -> seen.get("hostA").containsAll(ids(40, 80)));
            await("a lease per child range", () -> owners(leases).equals(Map.of("hostA", 3L)));
            // the estimator compares each lease's continuation with the range's current LSN (a 304's etag)
            await("no estimated lag", () -> {
                List<ChangeFeedProcessorState> state = a.getCurrentState().block();
                return state.size() == 3 && state.stream().allMatch(s -> s.getEstimatedLag() == 0);
            });
        } finally {
            stopIfStarted(a);
        }
    }

    @Test
    void theLegacyPartitionKeyRangeProcessorAndItsLagEstimate() {
        // handleChanges(List<JsonNode>): leases per range id, plain documents; its estimator subtracts the first
        // document's _lsn from the session token's LSN
        CosmosAsyncContainer feed = container("legacy", "/pk", 2);
        CosmosAsyncContainer leases = container("legacy-leases", "/id", 1);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ChangeFeedProcessor p = new ChangeFeedProcessorBuilder()
                .hostName("hostA")
                .feedContainer(feed)
                .leaseContainer(leases)
                .handleChanges((List<JsonNode> docs) -> docs.forEach(d -> seen.add(d.get("id").asText())))
                .options(quickLeases())
                .buildChangeFeedProcessor();
        p.start().block();
        try {
            write(feed, 0, 30);
            await("the legacy processor saw all 30", () -> seen.containsAll(ids(0, 30)));
            await("no estimated lag", () -> {
                Map<String, Integer> lag = p.getEstimatedLag().block();
                return lag.size() == 2 && lag.values().stream().allMatch(v -> v == 0);
            });
        } finally {
            stopIfStarted(p);
        }
    }

    @Test
    void anAllVersionsProcessorSeesDeletes() {
        CosmosAsyncContainer feed = container("avad", "/pk", 2);
        CosmosAsyncContainer leases = container("avad-leases", "/id", 1);
        Map<String, String> lastOp = new ConcurrentHashMap<>();
        ChangeFeedProcessor p = new ChangeFeedProcessorBuilder()
                .hostName("hostA")
                .feedContainer(feed)
                .leaseContainer(leases)
                .handleAllVersionsAndDeletesChanges((List<ChangeFeedProcessorItem> items) -> items.forEach(i -> {
                    // a delete's current is {} (as the service sends it): its id is in the metadata
                    String id = i.getCurrent() != null && i.getCurrent().has("id") ? i.getCurrent().get("id").asText()
                            : i.toJsonNode().get("metadata").get("id").asText();
                    lastOp.put(id, i.getChangeFeedMetaData().getOperationType().toString());
                }))
                .options(quickLeases().setStartFromBeginning(false))
                .buildChangeFeedProcessor();
        p.start().block();
        try {
            // an all-versions processor starts from now: wait until every lease holds a continuation
            await("leases initialised", () -> leases.queryItems("SELECT VALUE COUNT(1) FROM c WHERE"
                    + " IS_DEFINED(c.LeaseToken) AND c.ContinuationToken <> null", new CosmosQueryRequestOptions(),
                    Long.class).collectList().block().get(0) == 2L);
            write(feed, 0, 20);
            for (int i = 0; i < 20; i += 2) {
                feed.deleteItem("i" + i, new com.azure.cosmos.models.PartitionKey("k" + i)).block();
            }
            await("every create and delete", () -> lastOp.size() == 20
                    && IntStream.range(0, 20).allMatch(i -> lastOp.get("i" + i).equalsIgnoreCase(
                            i % 2 == 0 ? "delete" : "create")));
        } finally {
            stopIfStarted(p);
        }
    }
}
