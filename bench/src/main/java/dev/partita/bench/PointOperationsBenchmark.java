package dev.partita.bench;

import dev.partita.core.request.RequestOptions;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * In-process point read and point write of 1 KB items through the engine (partition key hashing, routing, store,
 * etag, TTL check: everything but HTTP), on both stores.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
public class PointOperationsBenchmark {
    static final int ITEMS = 100_000;

    @Param({"memory", "rocks"})
    public String store;

    /**
     * Physical partitions of the container (1,000 logical partitions spread over them): with one writer per physical
     * partition, concurrent writes to several partitions run in parallel ({@code -p partitions=1,5}).
     */
    @Param({"1"})
    public int partitions;

    /**
     * Microseconds every store point read waits (0: none), as a read from a cold disk would: it costs no CPU, so it
     * shows whether writes to different partitions overlap even on a loaded machine ({@code -p readLatencyMicros=200}).
     */
    @Param({"0"})
    public int readLatencyMicros;

    Engine engine;
    ContainerHandle items;
    PartitionKeyValue[] keys;
    String[] ids;
    byte[][] bodies;
    Path dir;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("partita-bench");
        SlowReads slow = new SlowReads("rocks".equals(store) ? RocksStore.open(dir) : new MemoryStore());
        engine = Engine.open(slow, Clock.systemUTC(),
                Limits.DEFAULTS, (condition, item) -> {
                    throw ServiceException.badRequest("no conditions in this benchmark");
                });
        engine.createDatabase(Json.object().put("id", "bench"), Throughput.NONE);
        engine.createContainer("bench", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "bench"), Throughput.NONE, partitions);
        items = engine.container("bench", "items");
        keys = new PartitionKeyValue[ITEMS];
        ids = new String[ITEMS];
        bodies = new byte[ITEMS][];
        String padding = "x".repeat(1024 - 80);
        for (int i = 0; i < ITEMS; i++) {
            ids[i] = "item-" + i;
            keys[i] = PartitionKeyValue.fromHeader("[\"tenant-" + (i % 1000) + "\"]");
            bodies[i] = ("{\"id\":\"" + ids[i] + "\",\"pk\":\"tenant-" + (i % 1000) + "\",\"n\":" + i
                    + ",\"pad\":\"" + padding + "\"}").getBytes(StandardCharsets.UTF_8);
            items.upsert(bodies[i], RequestOptions.of(keys[i]));
        }
        slow.waitMicros(readLatencyMicros);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        engine.close();
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public ItemResult pointRead() {
        int i = ThreadLocalRandom.current().nextInt(ITEMS);
        return items.read(ids[i], RequestOptions.of(keys[i]));
    }

    @Benchmark
    public ItemResult pointWrite() {
        int i = ThreadLocalRandom.current().nextInt(ITEMS);
        return items.upsert(bodies[i], RequestOptions.of(keys[i]));
    }
}
