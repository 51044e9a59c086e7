package dev.partita.bench;

import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What charging a request costs, with and without the per-partition statistics: {@code budgetOnly} is the charge as
 * it was before the statistics (the partition budget), {@code chargeWithStatistics} the charge as the request path
 * makes it now (budget, per-second RU and budget, totals, the logical partition's RU), over 1,000 logical partitions.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChargeBenchmark {
    Engine engine;
    Capacity capacity;
    ContainerInfo container;
    KeyRoute[] routes;

    @Setup
    public void setUp() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "bench"), Throughput.NONE);
        container = engine.createContainer("bench", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}",
                "bench"), Throughput.manual(40_000), 0);
        capacity = engine.capacity();
        routes = new KeyRoute[1000];
        for (int i = 0; i < routes.length; i++) {
            routes[i] = KeyRoute.of(container.partitionKey(), container.partitions(),
                    PartitionKeyValue.fromHeader("[\"tenant-" + i + "\"]"), engine.limits());
        }
    }

    @TearDown
    public void tearDown() {
        engine.close();
    }

    @Benchmark
    public double budgetOnly() {
        KeyRoute at = routes[ThreadLocalRandom.current().nextInt(routes.length)];
        return capacity.budget(container, at.range().id()).charge(engine.clock().millis(), 5.71);
    }

    @Benchmark
    public double chargeWithStatistics() {
        KeyRoute at = routes[ThreadLocalRandom.current().nextInt(routes.length)];
        return capacity.charge(container, at, 5.71);
    }
}
