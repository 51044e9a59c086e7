package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.item.ItemResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.Conditions;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ContainerHandle#readWithoutWaiting}, the point read the server answers on its event loop: when it answers,
 * its answer, charge and refusals are {@link ContainerHandle#read}'s; when it gives up (a fault rule in force, an item
 * RocksDB would read from disk, a container whose state is not loaded yet) it has spent nothing.
 */
class ReadWithoutWaitingTest {
    private static final RequestOptions AT_A = RequestOptions.of(PartitionKeyValue.fromHeader("[\"a\"]"));

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T01:00:00Z"));

    private Store open(String store) {
        return store.equals("rocks") ? RocksStore.open(tmp.resolve("db")) : new MemoryStore();
    }

    private Engine engine(Store store) {
        return Engine.open(store, clock, Limits.DEFAULTS);
    }

    private static ContainerInfo container(Engine engine) {
        return container(engine, Throughput.NONE);
    }

    private static ContainerInfo container(Engine engine, Throughput throughput) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = Json.object().put("id", "c");
        body.set("partitionKey", Json.object().set("paths", Json.NODES.arrayNode().add("/pk")));
        return engine.createContainer("db", body, throughput, 0);
    }

    private static void create(Engine engine, String id, int padding) {
        engine.container("db", "c").create(("{\"id\":\"" + id + "\",\"pk\":\"a\",\"pad\":\"" + "x".repeat(padding)
                + "\"}").getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
    }

    private static ContainerHandle ready(Engine engine) {
        ContainerHandle h = engine.containerWithoutWaiting(engine.readContainer("db", "c"));
        assertThat(h).isNotNull();
        return h;
    }

    private static ServiceException refusal(Supplier<ItemResult> read) {
        return catchThrowableOfType(ServiceException.class, read::get);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "rocks"})
    void anItemInMemoryIsAnsweredAsTheReadAnswersIt(String store) {
        try (Engine engine = engine(open(store))) {
            container(engine);
            create(engine, "x", 10);
            ContainerHandle h = ready(engine);
            ItemResult now = h.readWithoutWaiting("x", AT_A);
            ItemResult read = h.read("x", AT_A);
            assertThat(now).isNotNull();
            assertThat(now.status()).isEqualTo(200);
            assertThat(now.item().json()).isEqualTo(read.item().json());
            assertThat(now).usingRecursiveComparison().ignoringFields("item").isEqualTo(read);

            RequestOptions same = AT_A.withConditions(Conditions.ifNoneMatch(read.etag()));
            assertThat(h.readWithoutWaiting("x", same)).usingRecursiveComparison().isEqualTo(h.read("x", same));

            ServiceException absentNow = refusal(() -> h.readWithoutWaiting("nope", AT_A));
            ServiceException absent = refusal(() -> h.read("nope", AT_A));
            assertThat(absentNow.status()).isEqualTo(404);
            assertThat(absentNow.requestCharge()).isEqualTo(absent.requestCharge()).isPositive();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "rocks"})
    void aSpentBudgetRefusesBothReadsAlike(String store) {
        try (Engine engine = engine(open(store))) {
            ContainerInfo c = container(engine);
            create(engine, "x", 10);
            engine.capacity().enforce(true);
            engine.capacity().charge(c, "0", 1_000_000);
            ContainerHandle h = ready(engine);
            ServiceException now = refusal(() -> h.readWithoutWaiting("x", AT_A));
            ServiceException read = refusal(() -> h.read("x", AT_A));
            assertThat(now.status()).isEqualTo(429);
            assertThat(now.subStatus()).isEqualTo(read.subStatus());
            assertThat(now.requestCharge()).isEqualTo(read.requestCharge());
            assertThat(now.retryAfterMillis()).isPositive();
        }
    }

    /** A rule in force makes it give up before the rule fires: the read that follows meets the fault instead. */
    @ParameterizedTest
    @ValueSource(strings = {"memory", "rocks"})
    void aFaultRuleInForceMakesItGiveUpWithoutFiringTheRule(String store) {
        try (Engine engine = engine(open(store))) {
            container(engine);
            create(engine, "x", 10);
            engine.faults().add(new FaultRule(FaultRule.Kind.THROTTLE, "db/c", null, 1, 1, Duration.ofMillis(7)));
            ContainerHandle h = ready(engine);
            assertThat(h.readWithoutWaiting("x", AT_A)).isNull();
            assertThat(refusal(() -> h.read("x", AT_A)).status()).isEqualTo(429);
            assertThat(h.read("x", AT_A).status()).isEqualTo(200);
        }
    }

    /** A throughput split that fell due runs on the next request: until one ran it, the handle is refused. */
    @Test
    void aSplitThatFellDueKeepsTheHandleThatMayNotWaitBackUntilARequestRanIt() {
        Limits delayed = Limits.DEFAULTS.toBuilder().throughputSplitDelay(Duration.ofMinutes(5)).build();
        try (Engine engine = Engine.open(new MemoryStore(), clock, delayed)) {
            ContainerInfo c = engine.setThroughput(container(engine, Throughput.manual(6_000)),
                    Throughput.manual(20_000));
            assertThat(engine.containerWithoutWaiting(c)).isNotNull();
            clock.advance(Duration.ofMinutes(5));
            assertThat(engine.containerWithoutWaiting(c)).isNull();
            engine.container(c);
            assertThat(engine.readContainer("db", "c").partitions().partitions()).hasSize(2);
            assertThat(engine.containerWithoutWaiting(c)).isNotNull();
        }
    }

    /**
     * On RocksDB a new container's first request loads its state from the store (the handle that may not wait is
     * refused until then). After a restart the items sit in a file; with a block cache too small to keep a block, an
     * item there gives up every time (and the read answers it), while one written since answers from the memtable.
     */
    @Test
    void onRocksDbItGivesUpUntilTheStateIsLoadedAndForItemsOutsideTheCache() {
        try (Engine engine = engine(open("rocks"))) {
            ContainerInfo c = container(engine);
            assertThat(engine.containerWithoutWaiting(c)).isNull();
            create(engine, "x", 10);
        }
        try (Engine engine = engine(RocksStore.open(tmp.resolve("db"), new RocksStore.Settings(false, 1)))) {
            ContainerHandle h = ready(engine);
            assertThat(h.readWithoutWaiting("x", AT_A)).isNull();
            ItemResult x = h.read("x", AT_A);
            assertThat(x.status()).isEqualTo(200);
            assertThat(h.readWithoutWaiting("x", AT_A)).isNull();
            create(engine, "y", 10);
            assertThat(h.readWithoutWaiting("y", AT_A).status()).isEqualTo(200);
        }
    }
}
