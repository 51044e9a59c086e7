package dev.partita.server;

import dev.partita.core.request.Scope;
import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.ThroughputControlGroupConfig;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PriorityLevel;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * Capacity enforcement through the official SDK: 429/3200 with a retry-after that works, nothing applied by a throttled
 * write, the SDK's own retries absorbing a burst, hot partitions, burst capacity and priority. The server's clock
 * stands still unless a test moves it, so every window is exact.
 */
class ThrottlingSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    final TestClock clock = new TestClock();
    Engine engine;
    PartitaServer server;
    CosmosClient client;

    void start(Limits limits) {
        engine = Engine.open(new MemoryStore(), clock, limits);
        engine.capacity().enforce(true);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = builder(0).buildClient();
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"db\"}"), "db"), Throughput.NONE);
    }

    CosmosClientBuilder builder(int throttleRetries) {
        CosmosClientBuilder b = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY)
                .gatewayMode().consistencyLevel(ConsistencyLevel.SESSION).endpointDiscoveryEnabled(false);
        if (throttleRetries >= 0) {
            b.throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(throttleRetries));
        }
        return b;
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        server.close();
        engine.close();
    }

    /** A container made through the engine, so a test can pick its physical partition count. */
    CosmosContainer container(String id, int rus, int partitions) {
        engine.createContainer("db", Json.parseObject(bytes("{\"id\":\"" + id
                + "\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), "c"),
                Throughput.manual(rus), partitions);
        return client.getDatabase("db").getContainer(id);
    }

    static ObjectNode item(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("payload", "x".repeat(300));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Creates items until the first 429 (or {@code max}); returns how many were created. */
    static int writeUntilThrottled(CosmosContainer c, String prefix, String pk, int max) {
        for (int i = 0; i < max; i++) {
            try {
                c.createItem(item(prefix + i, pk), new PartitionKey(pk), new CosmosItemRequestOptions());
            } catch (CosmosException e) {
                assertThat(e.getStatusCode()).isEqualTo(429);
                return i;
            }
        }
        return max;
    }

    @Test
    void aBulkRequestIsThrottledOperationByOperationAndOnlyWhatRanIsWritten() {
        start(Limits.DEFAULTS);
        CosmosContainer c = container("bulk", 400, 1);
        java.util.List<com.azure.cosmos.models.CosmosItemOperation> ops = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ops.add(com.azure.cosmos.models.CosmosBulkOperations.getCreateItemOperation(item("b" + i, "p"),
                    new PartitionKey("p")));
        }
        // one micro-batch of 100 creates, far more than 400 RU: the clock stands still, so no retry can succeed
        int written = 0;
        int throttled = 0;
        double charged = 0;
        for (var r : c.executeBulkOperations(ops)) {
            if (r.getResponse() != null && r.getResponse().isSuccessStatusCode()) {
                written++;
                charged += r.getResponse().getRequestCharge();
            } else {
                int status = r.getResponse() != null ? r.getResponse().getStatusCode()
                        : ((CosmosException) r.getException()).getStatusCode();
                assertThat(status).isEqualTo(429);
                throttled++;
            }
        }
        assertThat(written).as("operations that ran").isPositive();
        assertThat(throttled).as("operations refused once the budget was spent").isPositive();
        assertThat(written + throttled).isEqualTo(100);
        double perWrite = charged / written;
        // admitted while the window had budget: at most one operation's overdraw beyond the 400 RU
        assertThat(charged).isLessThanOrEqualTo(400 + perWrite);
        assertThat(charged).isGreaterThan(400 - perWrite);
        ContainerInfo info = engine.readContainer("db", "bulk");
        long stored = storedIds(info).size();
        assertThat(stored).as("only the operations that ran were written").isEqualTo(written);
    }

    @Test
    void aBurstOverTheBudgetGets429WithARetryAfterThatLetsTheRetryThroughAndAppliesNothing() {
        start(Limits.DEFAULTS);
        CosmosContainer c = container("c", 400, 1);
        CosmosException throttled = null;
        int created = 0;
        for (int i = 0; i < 500 && throttled == null; i++) {
            try {
                c.createItem(item("i" + i, "a"), new PartitionKey("a"), new CosmosItemRequestOptions());
                created++;
            } catch (CosmosException e) {
                throttled = e;
            }
        }
        assertThat(throttled).as("a burst over 400 RU/s within one second is throttled").isNotNull();
        assertThat(throttled.getStatusCode()).isEqualTo(429);
        assertThat(throttled.getSubStatusCode()).isEqualTo(3200);
        assertThat(throttled.getRetryAfterDuration()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(throttled.getRequestCharge()).isZero();
        // 5-6 RU per create (6 once index terms are counted): 67-80 fit in a second
        assertThat(created).isBetween(60, 81);

        // the throttled create applied nothing
        ContainerInfo info = engine.readContainer("db", "c");
        String missing = "i" + created;
        assertThat(storedIds(info)).as("the throttled write applied nothing").doesNotContain(missing);
        assertThat(engine.lsn(info)).isEqualTo(created);

        // still throttled in the same window; after the retry-after, the same request goes through
        assertThatThrownBy(() -> c.createItem(item(missing, "a"), new PartitionKey("a"), new CosmosItemRequestOptions()))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(429));
        clock.advance(throttled.getRetryAfterDuration());
        CosmosItemResponse<ObjectNode> retried = c.createItem(item(missing, "a"), new PartitionKey("a"),
                new CosmosItemRequestOptions());
        assertThat(retried.getStatusCode()).isEqualTo(201);
    }

    @Test
    void withTheSdksDefaultRetriesTheSameBurstCompletes() {
        start(Limits.DEFAULTS);
        // 100 RU/s per physical partition: a burst on one key outruns it however slowly the machine sends
        container("c", 400, 4);
        // the SDK waits the retry-after in real time, so the server's clock follows real time here
        clock.live();
        try (CosmosAsyncClient async = builder(-1).buildAsyncClient()) {
            CosmosAsyncContainer c = async.getDatabase("db").getContainer("c");
            long before = engine.capacity().throttledRequests();
            Long done = Flux.range(0, 60)
                    .flatMap(i -> c.createItem(item("b" + i, "a"), new PartitionKey("a"),
                            new CosmosItemRequestOptions()), 16)
                    .count().block();
            assertThat(done).isEqualTo(60);
            assertThat(engine.capacity().throttledRequests() - before).as("the burst was throttled on the way")
                    .isPositive();
        } finally {
            clock.stop();
        }
        assertThat(engine.lsn(engine.readContainer("db", "c"))).isEqualTo(60);
    }

    @Test
    void aPartitionSkewedWorkloadThrottlesOnlyTheHotPartition() {
        start(Limits.DEFAULTS);
        CosmosContainer c = container("skew", 400, 2); // 200 RU/s per physical partition
        ContainerInfo info = engine.readContainer("db", "skew");
        String hot = "hot";
        String hotRange = KeyRoute.of(info.partitionKey(), info.partitions(), PartitionKeyValue.fromHeader("[\"hot\"]"), Limits.DEFAULTS).range().id();
        String cold = null;
        for (int i = 0; cold == null; i++) {
            String k = "cold-" + i;
            if (!KeyRoute.of(info.partitionKey(), info.partitions(), PartitionKeyValue.fromHeader("[\"" + k + "\"]"), Limits.DEFAULTS).range().id().equals(hotRange)) {
                cold = k;
            }
        }
        // a write's price, measured on the other partition (its budget is its own)
        double perWrite = c.createItem(item("probe", cold), new PartitionKey(cold), new CosmosItemRequestOptions())
                .getRequestCharge();
        int hotWrites = writeUntilThrottled(c, "h", hot, 200);
        assertThat(hotWrites).isBetween((int) (200 / perWrite * 0.9), (int) (200 / perWrite) + 1);
        // the container as a whole has budget left, and the other partition serves it
        for (int i = 0; i < 20; i++) {
            assertThat(c.createItem(item("c" + i, cold), new PartitionKey(cold), new CosmosItemRequestOptions())
                    .getStatusCode()).isEqualTo(201);
        }
        assertThatThrownBy(() -> c.createItem(item("h-again", hot), new PartitionKey(hot),
                new CosmosItemRequestOptions())).isInstanceOf(CosmosException.class);
    }

    @Test
    void burstCapacityLetsAnIdlePartitionAbsorbASpikeThenNot() {
        // burst banks 3 s of the partition's RU/s here (300 s in the service), so a short test can empty it
        start(Limits.DEFAULTS.toBuilder().burstAccumulation(Duration.ofSeconds(3)).build());
        engine.capacity().burstCapacity(true);
        CosmosContainer c = container("burst", 400, 1);
        double perWrite = c.createItem(item("first", "a"), new PartitionKey("a"), new CosmosItemRequestOptions())
                .getRequestCharge();
        clock.advance(Duration.ofSeconds(10)); // idle: the bank fills to 3 x 400 = 1,200 RU
        int spike = writeUntilThrottled(c, "s", "a", 600);
        // 400 provisioned + 1,200 banked in one second: four times the budget alone (one write may overdraw)
        assertThat(spike).isBetween((int) (1_600 / perWrite * 0.9), (int) (1_600 / perWrite) + 1);
        clock.advance(Duration.ofSeconds(1));
        int after = writeUntilThrottled(c, "t", "a", 600);
        assertThat(after).as("the bank is spent: back to 400 RU/s")
                .isBetween((int) (400 / perWrite * 0.9), (int) (400 / perWrite) + 1);
    }

    @Test
    void underContentionLowPriorityIsThrottledWhileHighPriorityCompletes() {
        start(Limits.DEFAULTS);
        CosmosContainer c = container("prio", 400, 1);
        ThroughputControlGroupConfig low = new ThroughputControlGroupConfigBuilder().groupName("low")
                .priorityLevel(PriorityLevel.LOW).build();
        c.enableLocalThroughputControlGroup(low);
        CosmosItemRequestOptions lowOptions = new CosmosItemRequestOptions();
        lowOptions.setThroughputControlGroupName("low");
        AtomicInteger highDone = new AtomicInteger();
        AtomicInteger lowDone = new AtomicInteger();
        AtomicInteger lowThrottled = new AtomicInteger();
        double perWrite = c.createItem(item("probe", "b"), new PartitionKey("b"), new CosmosItemRequestOptions())
                .getRequestCharge();
        clock.advance(Duration.ofSeconds(1));
        // n high and n low writes in one second ask 2n writes of a 400 RU/s partition: more than it has, while the
        // high ones alone, plus the low ones admitted before the low-priority headroom is reached, fit
        int n = (int) (0.55 * 400 / perWrite);
        for (int i = 0; i < n; i++) {
            c.createItem(item("high" + i, "a"), new PartitionKey("a"), new CosmosItemRequestOptions());
            highDone.incrementAndGet();
            try {
                c.createItem(item("low" + i, "a"), new PartitionKey("a"), lowOptions);
                lowDone.incrementAndGet();
            } catch (CosmosException e) {
                assertThat(e.getStatusCode()).isEqualTo(429);
                assertThat(e.getSubStatusCode()).isEqualTo(3200);
                lowThrottled.incrementAndGet();
            }
        }
        assertThat(highDone.get()).isEqualTo(n);
        assertThat(lowThrottled.get()).isPositive();
        assertThat(lowDone.get()).isLessThan(n);
    }

    /** The ids stored in a container, read from the store itself: a look that draws on no partition's budget. */
    private java.util.List<String> storedIds(ContainerInfo info) {
        java.util.List<String> ids = new java.util.ArrayList<>();
        byte[][] all = dev.partita.core.store.StoreKeys.containerItems(info.containerId());
        try (dev.partita.core.store.Cursor cur = engine.store().scan(all[0], all[1])) {
            while (cur.next()) {
                ids.add(dev.partita.core.store.StoreKeys.itemId(cur.key()));
            }
        }
        return ids;
    }
}
