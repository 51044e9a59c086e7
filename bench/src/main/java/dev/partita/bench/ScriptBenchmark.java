package dev.partita.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.ContainerScripts;
import dev.partita.core.Engine;
import dev.partita.core.ScriptResult;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.script.ScriptKind;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Server-side JavaScript in process (no HTTP), warm: a stored procedure with an empty body and one that upserts 10
 * documents (lease a pooled context, open the partition transaction, run, commit, price), and a query over 10,000
 * items with a user-defined function in SELECT and WHERE against the same query with built-ins only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
public class ScriptBenchmark {
    static final int ITEMS = 10_000;

    Engine engine;
    ContainerScripts scripts;
    ContainerHandle items;
    RequestOptions partition;
    final AtomicLong round = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "bench"), Throughput.NONE);
        engine.createContainer("bench", (ObjectNode) Json.parse(
                "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "bench"), Throughput.NONE, 0);
        items = engine.container("bench", "items");
        scripts = engine.scripts(items.info());
        for (int i = 0; i < ITEMS; i++) {
            items.upsert(("{\"id\":\"item-" + i + "\",\"pk\":\"tenant-" + (i % 100) + "\",\"price\":" + i + "}")
                    .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        }
        scripts.create(ScriptKind.STORED_PROCEDURE, Json.object().put("id", "empty").put("body", "function () {}"),
                RequestOptions.NONE);
        scripts.create(ScriptKind.STORED_PROCEDURE, Json.object().put("id", "ten").put("body",
                "function (r) { var c = getContext().getCollection(); for (var i = 0; i < 10; i++)"
                        + " c.upsertDocument(c.getSelfLink(), {id: 'w' + i, pk: 'sproc', round: r}); }"),
                RequestOptions.NONE);
        scripts.create(ScriptKind.USER_DEFINED_FUNCTION, Json.object().put("id", "tax").put("body",
                "function (p) { return p * 1.2; }"), RequestOptions.NONE);
        partition = RequestOptions.of(PartitionKeyValue.fromHeader("[\"sproc\"]"));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
    }

    @Benchmark
    public ScriptResult sprocEmpty() {
        return scripts.execute("empty", null, false, partition);
    }

    @Benchmark
    public ScriptResult sprocTenWrites() {
        byte[] params = ("[" + round.incrementAndGet() + "]").getBytes(StandardCharsets.UTF_8);
        return scripts.execute("ten", params, false, partition);
    }

    @Benchmark
    public QueryPage queryWithUdf() {
        return items.query("SELECT VALUE udf.tax(c.price) FROM c WHERE udf.tax(c.price) > 6000", Map.of(),
                RequestOptions.scoped(dev.partita.core.request.Scope.CONTAINER));
    }

    @Benchmark
    public QueryPage queryWithoutUdf() {
        return items.query("SELECT VALUE c.price * 1.2 FROM c WHERE c.price * 1.2 > 6000", Map.of(),
                RequestOptions.scoped(dev.partita.core.request.Scope.CONTAINER));
    }
}
