package dev.partita.bench;

import dev.partita.core.Engine;
import dev.partita.core.ContainerHandle;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;

/**
 * The engine's CPU per point write without the SDK or HTTP: one thread creates {@code count} items shaped like the
 * load harness's ({@link Documents}: 1 KB, partition keys {@code w-0..w-999}, the default indexing policy) in an
 * in-memory container and reports the thread's CPU time per create over the second half (a store already holding
 * the first half's keys, as after the harness's warm-up).
 *
 * <pre>java -Xmx5g -cp bench/target/benchmarks.jar dev.partita.bench.EngineWriteProbe [count (300000)]</pre>
 */
public final class EngineWriteProbe {
    private EngineWriteProbe() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Documents docs = new Documents(1024);
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "bench"), Throughput.NONE);
            engine.createContainer("bench", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                    "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "bench"), Throughput.NONE, 1);
            ContainerHandle items = engine.container("bench", "items");
            long cpu = 0;
            long wall = 0;
            for (int i = 0; i < count; i++) {
                if (i == count / 2) {
                    cpu = threads.getCurrentThreadCpuTime();
                    wall = System.nanoTime();
                }
                String pk = Documents.writePk(i);
                byte[] body = docs.item("probe-" + i, pk, i).toString().getBytes(StandardCharsets.UTF_8);
                items.create(body, RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")));
            }
            int measured = count - count / 2;
            System.out.printf(Locale.ROOT, "%,d creates of 1 KB: %.1f µs CPU and %.1f µs wall per create (last %,d)%n",
                    count, (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / measured,
                    (System.nanoTime() - wall) / 1e3 / measured, measured);
        }
    }
}
