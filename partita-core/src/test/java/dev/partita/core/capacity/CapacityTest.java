package dev.partita.core.capacity;

import dev.partita.core.request.RequestOptions;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.MutableClock;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Offers;
import dev.partita.core.account.Throughput;
import dev.partita.core.request.Conditions;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Throughput, per-partition budgets and limits through the engine, on a virtual clock. */
class CapacityTest {
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
    Engine engine;

    Engine open(Limits limits) {
        engine = Engine.open(new MemoryStore(), clock, limits);
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"db\"}"), "db"), Throughput.NONE);
        return engine;
    }

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    ContainerInfo container(String db, String id, Throughput t) {
        return engine.createContainer(db, Json.parseObject(bytes("{\"id\":\"" + id
                + "\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), "c"), t, 0);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static ServiceException throttle(Runnable r) {
        try {
            r.run();
        } catch (ServiceException e) {
            return e;
        }
        return null;
    }

    // ---- throughput and partitions

    @Test
    void aNewContainerBanksBurstCapacityWhileItStandsIdleBeforeItsFirstRequest() {
        open(Limits.DEFAULTS);
        engine.capacity().enforce(true).burstCapacity(true);
        ContainerInfo c = container("db", "idle", Throughput.manual(400));
        clock.advance(Duration.ofSeconds(60));
        String range = c.partitions().partitions().get(0).id();
        // 59 whole idle windows and the unused first one: 60 s of 400 RU/s
        assertThat(engine.capacity().budget(c, range).burstBank(clock.millis())).isEqualTo(60 * 400.0);
    }

    @Test
    void initialPartitionsFollowTheDocumentedRule() {
        open(Limits.DEFAULTS);
        assertThat(container("db", "m400", Throughput.manual(400)).partitions().partitions()).hasSize(1);
        assertThat(container("db", "m12k", Throughput.manual(12_000)).partitions().partitions()).hasSize(2);
        assertThat(container("db", "a20k", Throughput.autoscale(20_000)).partitions().partitions()).hasSize(2);
        assertThat(container("db", "a21k", Throughput.autoscale(21_000)).partitions().partitions()).hasSize(3);
    }

    @Test
    void raisingThroughputBeyondTenThousandPerPartitionSplitsAtOnceAndLoweringNeverMerges() {
        open(Limits.DEFAULTS);
        ContainerInfo c = container("db", "c", Throughput.manual(18_000));
        assertThat(c.partitions().partitions()).hasSize(3);
        c = engine.setThroughput(c, Throughput.manual(30_000));
        assertThat(c.partitions().partitions()).as("3 x 10,000 still fits").hasSize(3);
        c = engine.setThroughput(c, Throughput.manual(45_000));
        List<PhysicalPartition> parts = c.partitions().partitions();
        assertThat(parts).hasSize(5);
        assertThat(parts.stream().filter(p -> !p.parents().isEmpty())).as("two of the three split").hasSize(4);
        c = engine.setThroughput(c, Throughput.manual(400));
        assertThat(c.partitions().partitions()).hasSize(5);
        assertThat(c.throughput()).isEqualTo(Throughput.manual(400));
    }

    @Test
    void aConfiguredSplitDelayPostponesTheSplitsButNotTheNewThroughput() {
        open(Limits.DEFAULTS.toBuilder().throughputSplitDelay(Duration.ofMinutes(5)).build());
        ContainerInfo c = container("db", "c", Throughput.manual(6_000));
        c = engine.setThroughput(c, Throughput.manual(20_000));
        assertThat(c.partitions().partitions()).hasSize(1);
        assertThat(c.throughput().manualRus()).isEqualTo(20_000);
        assertThat(engine.throughputSplitPending(c)).isTrue();
        // meanwhile one partition still serves at most 10,000 RU/s
        assertThat(engine.capacity().budget(c, "0").rate()).isEqualTo(10_000);
        clock.advance(Duration.ofMinutes(4));
        engine.runDueSplits();
        assertThat(engine.readContainer("db", "c").partitions().partitions()).hasSize(1);
        clock.advance(Duration.ofMinutes(1));
        engine.container(c); // any entry point runs splits that fell due
        ContainerInfo after = engine.readContainer("db", "c");
        assertThat(after.partitions().partitions()).hasSize(2);
        assertThat(engine.throughputSplitPending(after)).isFalse();
        assertThat(engine.capacity().budget(after, after.partitions().partitions().get(0).id()).rate())
                .isEqualTo(10_000);
    }

    @Test
    void aSharedDatabaseHoldsAtMostTwentyFiveSharingContainers() {
        open(Limits.DEFAULTS.toBuilder().maxSharedThroughputContainers(3).build());
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"shared\"}"), "db"), Throughput.manual(400));
        for (int i = 0; i < 3; i++) {
            container("shared", "c" + i, Throughput.NONE);
        }
        assertThatThrownBy(() -> container("shared", "c3", Throughput.NONE))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(container("shared", "own", Throughput.manual(400))).as("its own throughput is fine").isNotNull();
        assertThat(Limits.DEFAULTS.maxSharedThroughputContainers()).isEqualTo(25);
    }

    @Test
    void serverlessRefusesProvisionedThroughputAndServesFiveThousandPerPartition() {
        open(Limits.DEFAULTS);
        engine.capacity().serverless(true);
        assertThatThrownBy(() -> container("db", "c", Throughput.manual(400)))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        ContainerInfo c = container("db", "c", Throughput.NONE);
        assertThat(engine.capacity().budget(c, "0").rate()).isEqualTo(5_000);
        assertThat(engine.offers().list()).isEmpty();
    }

    @Test
    void offersValidateManualAndAutoscaleSteps() {
        open(Limits.DEFAULTS);
        assertThatThrownBy(() -> Offers.validate(Throughput.manual(450), Limits.DEFAULTS)).isInstanceOf(ServiceException.class);
        assertThatThrownBy(() -> Offers.validate(Throughput.autoscale(4500), Limits.DEFAULTS)).isInstanceOf(ServiceException.class);
        assertThatThrownBy(() -> Offers.validate(Throughput.manual(300), Limits.DEFAULTS)).isInstanceOf(ServiceException.class);
        assertThat(Offers.validate(Throughput.manual(500), Limits.DEFAULTS)).isNotNull();
        assertThat(Offers.validate(Throughput.autoscale(5000), Limits.DEFAULTS)).isNotNull();
    }

    // ---- budgets

    @Test
    void eachPartitionGetsItsShareAndSharedDatabasesShareTheirs() {
        open(Limits.DEFAULTS);
        ContainerInfo own = container("db", "own", Throughput.manual(12_000));
        assertThat(engine.capacity().budget(own, "0").rate()).isEqualTo(6_000);
        ContainerInfo auto = container("db", "auto", Throughput.autoscale(4_000));
        assertThat(engine.capacity().budget(auto, "0").rate()).as("autoscale may reach its max").isEqualTo(4_000);
        ContainerInfo none = container("db", "none", Throughput.NONE);
        assertThat(engine.capacity().budget(none, "0").rate()).as("the service default").isEqualTo(400);
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"shared\"}"), "db"), Throughput.manual(400));
        ContainerInfo a = container("shared", "a", Throughput.NONE);
        ContainerInfo b = container("shared", "b", Throughput.NONE);
        engine.capacity().charge(a, "0", 300);
        assertThat(engine.capacity().budget(b, "0").remaining(clock.millis())).as("one pool").isEqualTo(100);
    }

    @Test
    void enforcementIsOffByDefaultAndOnForTheAccountOrOneContainer() {
        open(Limits.DEFAULTS);
        ContainerInfo c = container("db", "c", Throughput.manual(400));
        ContainerInfo other = container("db", "other", Throughput.manual(400));
        Capacity cap = engine.capacity();
        cap.charge(c, "0", 1_000);
        cap.charge(other, "0", 1_000);
        cap.admit(c, "0", Priority.HIGH); // off: no 429, though the budget is spent
        cap.enforce(c, true);
        ServiceException e = throttle(() -> cap.admit(c, "0", Priority.HIGH));
        assertThat(e).isNotNull();
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.subStatus()).isEqualTo(3200);
        assertThat(e.retryAfterMillis()).isEqualTo(2000); // 600 RU of debt at 400 RU/s: the window after next
        cap.admit(other, "0", Priority.HIGH);
        cap.enforce(true);
        assertThat(throttle(() -> cap.admit(other, "0", Priority.HIGH))).isNotNull();
        cap.enforce(c, false);
        cap.admit(c, "0", Priority.HIGH);
    }

    @Test
    void anInProcessCallerIsChargedAndThrottledLikeAnSdkCaller() {
        open(Limits.DEFAULTS);
        ContainerInfo c = container("db", "c", Throughput.manual(400));
        engine.capacity().enforce(true);
        ContainerHandle items = engine.container(c);
        PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
        int written = 0;
        ServiceException refused = null;
        for (int i = 0; i < 200 && refused == null; i++) {
            try {
                var r = items.create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"a\"}"), RequestOptions.of(pk));
                // the cost model's price of a small write with default indexing, on the result
                assertThat(r.requestCharge()).isBetween(5.0, 7.0);
                written++;
            } catch (ServiceException e) {
                refused = e;
            }
        }
        assertThat(refused).isNotNull();
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.subStatus()).isEqualTo(3200);
        assertThat(refused.requestCharge()).as("429s are free").isZero();
        assertThat(written).isBetween(400 / 7, 400 / 5 + 1);
        clock.advance(Duration.ofMillis(refused.retryAfterMillis()));
        String throttledId = "i" + written;
        assertThatThrownBy(() -> items.read(throttledId, RequestOptions.of(pk)))
                .as("the throttled write applied nothing").isInstanceOfSatisfying(ServiceException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
        assertThat(items.create(bytes("{\"id\":\"late\",\"pk\":\"a\"}"), RequestOptions.of(pk)).status())
                .as("the retry-after lets it through").isEqualTo(201);
        assertThat(engine.capacity().throttledRequests()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void autoscaleReportsTheLevelItScaledToBetweenItsFloorAndItsMax() {
        open(Limits.DEFAULTS);
        ContainerInfo c = container("db", "c", Throughput.autoscale(4_000));
        Capacity cap = engine.capacity();
        assertThat(cap.currentThroughput(c)).isEqualTo(400);
        cap.charge(c, "0", 1_500);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cap.currentThroughput(c)).isEqualTo(1_500);
        cap.charge(c, "0", 9_000);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cap.currentThroughput(c)).isEqualTo(4_000);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cap.currentThroughput(c)).isEqualTo(400);
    }

    @Test
    void normalizedConsumptionIsTheBusiestPartitionsShareOfItsBudget() {
        open(Limits.DEFAULTS);
        ContainerInfo c = engine.createContainer("db", Json.parseObject(bytes("{\"id\":\"n\",\"partitionKey\":"
                + "{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), "c"), Throughput.manual(20_000), 2);
        Capacity cap = engine.capacity();
        cap.charge(c, "0", 6_000); // S11's example: 60% and 80% of 10,000 each => 80%
        cap.charge(c, "1", 8_000);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cap.normalizedConsumption(c)).isEqualTo(0.8);
    }

    // ---- limits

    @Test
    void limitsScaleForSimulationsAndSetOneByOne() {
        Limits small = Limits.DEFAULTS.scaled(1.0 / 1000);
        assertThat(small.maxLogicalPartitionBytes()).isEqualTo(Limits.DEFAULTS.maxLogicalPartitionBytes() / 1000);
        assertThat(small.maxPhysicalPartitionBytes()).isEqualTo(Math.round(50L * 1024 * 1024 * 1024 / 1000.0));
        assertThat(small.maxPhysicalPartitionRus()).as("throughput limits stay").isEqualTo(10_000);
        assertThat(small.maxItemBytes()).as("protocol limits stay").isEqualTo(Limits.DEFAULTS.maxItemBytes());
        Limits one = Limits.DEFAULTS.with("maxBatchOperations", "5").with("throughputSplitDelay", "PT1M")
                .with("maxLogicalPartitionBytes", "1_000");
        assertThat(one.maxBatchOperations()).isEqualTo(5);
        assertThat(one.throughputSplitDelay()).isEqualTo(Duration.ofMinutes(1));
        assertThat(one.maxLogicalPartitionBytes()).isEqualTo(1000);
        assertThatThrownBy(() -> Limits.DEFAULTS.with("nope", "1")).hasMessageContaining("maxItemBytes");
    }

    @Test
    void aPhysicalPartitionOverItsStorageLimitSplitsButOneLogicalPartitionCannot() {
        open(Limits.DEFAULTS.toBuilder().maxPhysicalPartitionBytes(20_000).build());
        ContainerInfo c = container("db", "c", Throughput.manual(400));
        ContainerHandle items = engine.container(c);
        for (int i = 0; i < 60; i++) {
            String k = "k" + (i % 12);
            items.create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"" + k
                    + "\",\"pad\":\"" + "p".repeat(400) + "\"}"), RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + k + "\"]")));
        }
        assertThat(engine.splitOversizedPartitions()).isEqualTo(1);
        ContainerInfo after = engine.readContainer("db", "c");
        assertThat(after.partitions().partitions()).hasSize(2);
        // every item is still found where the new map routes it
        for (int i = 0; i < 60; i++) {
            String k = "k" + (i % 12);
            assertThat(engine.container(after).read("i" + i, RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + k + "\"]"))).status()).isEqualTo(200);
        }
        // one logical partition over the limit stays whole
        ContainerInfo one = container("db", "one", Throughput.manual(400));
        for (int i = 0; i < 60; i++) {
            engine.container(one).create(bytes("{\"id\":\"i" + i
                    + "\",\"pk\":\"same\",\"pad\":\"" + "p".repeat(400) + "\"}"), RequestOptions.of(PartitionKeyValue.fromHeader("[\"same\"]")));
        }
        engine.splitOversizedPartitions();
        assertThat(engine.readContainer("db", "one").partitions().partitions()).hasSize(1);
    }

    @Test
    void aScaledLogicalPartitionLimitRefusesWritesWith403And1014() {
        open(Limits.DEFAULTS.scaled(1.0 / 10_000_000)); // 20 GB / 10^7 = ~2 KB per logical partition
        ContainerInfo c = container("db", "c", Throughput.manual(400));
        ContainerHandle items = engine.container(c);
        PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
        ServiceException full = null;
        for (int i = 0; i < 50 && full == null; i++) {
            try {
                items.create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"a\",\"pad\":\"" + "p".repeat(200) + "\"}"), RequestOptions.of(pk));
            } catch (ServiceException e) {
                full = e;
            }
        }
        assertThat(full).isNotNull();
        assertThat(full.status()).isEqualTo(403);
        assertThat(full.subStatus()).isEqualTo(1014);
    }
}
