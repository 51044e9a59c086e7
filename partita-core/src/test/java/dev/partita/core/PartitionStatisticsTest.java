package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.stats.ContainerStatistics;
import dev.partita.core.stats.PartitionStatistics;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The per-partition statistics the explorer's heat map and the metrics read, through the engine. */
class PartitionStatisticsTest {
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00.100Z"));
    Engine engine;
    ContainerInfo c;

    @BeforeEach
    void open() {
        engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS);
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"db\"}"), "db"), Throughput.NONE);
        c = engine.createContainer("db", Json.parseObject(bytes("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],"
                + "\"kind\":\"Hash\",\"version\":2}}"), "c"), Throughput.manual(400), 2);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    double write(String pk, String id, int pad) {
        return engine.container(c).upsert(bytes("{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\",\"pad\":\""
                + "x".repeat(pad) + "\"}"), RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")))
                .requestCharge();
    }

    @Test
    void eachSecondShowsTheChargesOfThePartitionThatServedThem() {
        double first = write("hot", "a", 10) + write("hot", "b", 10);
        clock.advance(Duration.ofSeconds(1));
        double second = write("hot", "c", 10);
        ContainerStatistics s = engine.statistics(c, 10, 5);
        PartitionStatistics hot = s.partitions().stream().filter(p -> p.totalRu() > 0).findFirst().orElseThrow();
        double[] series = hot.ruPerSecond();
        assertThat(series).hasSize(10);
        assertThat(series[8]).isEqualTo(Math.round(first * 100) / 100.0);
        assertThat(series[9]).isEqualTo(second);
        assertThat(hot.totalRu()).isCloseTo(first + second, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(hot.budgetRusPerSecond()).isEqualTo(200.0);
        assertThat(hot.itemCount()).isEqualTo(3);
        assertThat(hot.logicalPartitions()).isEqualTo(1);
        assertThat(hot.storageBytes()).isPositive();
        assertThat(s.partitions()).hasSize(2).allMatch(PartitionStatistics::live);
        assertThat(s.partitions().stream().mapToDouble(PartitionStatistics::totalRu).sum())
                .isCloseTo(first + second, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theHotLogicalPartitionLeadsByRuAndTheLargestBySize() {
        for (int i = 0; i < 20; i++) {
            write("hot", "h" + i, 10);
        }
        write("big", "b", 20000);
        write("cold", "k", 10);
        ContainerStatistics s = engine.statistics(c, 5, 2);
        assertThat(s.topByRu()).hasSize(2);
        assertThat(s.topByRu().get(0).partitionKey()).isEqualTo("[\"hot\"]");
        assertThat(s.topByRu().get(0).bytes()).isPositive();
        assertThat(s.topBySize()).hasSize(2);
        assertThat(s.topBySize().get(0).partitionKey()).isEqualTo("[\"big\"]");
        assertThat(s.topBySize().get(0).bytes()).isGreaterThan(20000);
    }

    @Test
    void refusedRequestsAreCountedOnTheirPartitionAndSecond() {
        engine.capacity().enforce(true);
        int refused = 0;
        for (int i = 0; i < 100; i++) {
            try {
                write("hot", "i" + i, 10);
            } catch (ServiceException e) {
                assertThat(e.status()).isEqualTo(429);
                refused++;
            }
        }
        assertThat(refused).isPositive();
        ContainerStatistics s = engine.statistics(c, 3, 5);
        PartitionStatistics hot = s.partitions().stream().filter(p -> p.totalThrottled() > 0).findFirst()
                .orElseThrow();
        assertThat(hot.totalThrottled()).isEqualTo(refused);
        assertThat(hot.throttledPerSecond()[2]).isEqualTo(refused);
        assertThat(Arrays.stream(hot.ruPerSecond()).sum()).isGreaterThanOrEqualTo(hot.budgetRusPerSecond());
    }

    @Test
    void aSplitIsRecordedAndTheParentKeepsItsHistoryAsAGonePartition() {
        write("hot", "a", 10);
        String parent = engine.container(c).info().partitions().route(
                dev.partita.core.partition.EffectivePartitionKey.of(c.partitionKey(),
                        PartitionKeyValue.fromHeader("[\"hot\"]"))).id();
        clock.advance(Duration.ofSeconds(2));
        engine.setThroughput(engine.readContainer("db", "c"), Throughput.manual(1000));
        write("hot", "b", 10);
        engine.split(c, parent);
        ContainerStatistics s = engine.statistics(c, 10, 5);
        assertThat(s.splits()).hasSize(1);
        assertThat(s.splits().get(0).parent()).isEqualTo(parent);
        assertThat(s.splits().get(0).children()).containsExactly("2", "3");
        assertThat(s.splits().get(0).atMillis()).isEqualTo(clock.millis());
        assertThat(s.partitions()).extracting(PartitionStatistics::id).containsExactlyInAnyOrder(
                parent.equals("0") ? "1" : "0", "2", "3", parent);
        PartitionStatistics gone = s.partitions().stream().filter(p -> !p.live()).findFirst().orElseThrow();
        assertThat(gone.id()).isEqualTo(parent);
        assertThat(gone.totalRu()).isPositive();
        assertThat(gone.budgetRusPerSecond()).as("the RU/s it last served under").isEqualTo(500.0);
        assertThat(gone.budgetPerSecond()[7]).as("each second's charges against that second's RU/s").isEqualTo(200.0);
        assertThat(gone.budgetPerSecond()[9]).isEqualTo(500.0);
        assertThat(s.partitions().stream().filter(p -> p.live()).mapToLong(PartitionStatistics::itemCount).sum())
                .isEqualTo(2);
    }

    @Test
    void aDeletedContainerIsForgotten() {
        write("hot", "a", 10);
        int id = c.containerId();
        engine.deleteContainer("db", "c");
        assertThat(engine.capacity().stats().existing(id, "0")).isNull();
        assertThat(engine.capacity().stats().existing(id, "1")).isNull();
    }
}
