package dev.partita.bench;

import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;

/**
 * Sustained upserts into the memory store with background maintenance running, printing the heap in use after a full
 * collection every interval: shows the change log held to {@link Limits#maxChangeLogBytes()} instead of growing with
 * every version. Bounded by its duration.
 *
 * <pre>
 * java -Xmx4g -cp bench/target/benchmarks.jar dev.partita.bench.ChangeLogHeapHarness [seconds=600] [items=10000]
 *     [item bytes=1024] [report every seconds=60] [budget bytes, default the limit's]
 * </pre>
 */
public final class ChangeLogHeapHarness {
    private ChangeLogHeapHarness() {
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 600;
        int items = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Documents docs = new Documents(args.length > 2 ? Integer.parseInt(args[2]) : 1024);
        long every = args.length > 3 ? Long.parseLong(args[3]) : 60;
        Limits limits = args.length > 4
                ? Limits.DEFAULTS.toBuilder().maxChangeLogBytes(Long.parseLong(args[4])).build() : Limits.DEFAULTS;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), limits)) {
            engine.createDatabase(Json.parseObject(bytes("{\"id\":\"bench\"}"), "db"), Throughput.NONE);
            ContainerHandle c = engine.container(engine.createContainer("bench", Json.parseObject(bytes(
                    "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), "c"),
                    Throughput.NONE, 1));
            engine.startBackgroundTasks();
            System.out.printf(Locale.ROOT, "change-log budget %,d bytes; %,d items of %,d bytes, upserted in turn%n",
                    limits.maxChangeLogBytes(), items, docs.size());
            System.out.printf(Locale.ROOT, "%8s %14s %12s %16s%n", "seconds", "upserts", "upserts/s", "heap used (MB)");
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            long nextReport = start + every * 1_000_000_000L;
            long n = 0;
            while (System.nanoTime() < end) {
                String pk = Documents.writePk(n);
                byte[] body = docs.item("w-" + (n % items), pk, n).toString().getBytes(StandardCharsets.UTF_8);
                c.upsert(body, RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")));
                n++;
                if ((n & 1023) == 0 && System.nanoTime() >= nextReport) {
                    report(memory, start, n);
                    nextReport += every * 1_000_000_000L;
                }
            }
            report(memory, start, n);
        }
    }

    private static void report(MemoryMXBean memory, long start, long upserts) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.gc();
        System.out.printf(Locale.ROOT, "%8.0f %,14d %,12.0f %,16.0f%n", elapsed, upserts, upserts / elapsed,
                memory.getHeapMemoryUsage().getUsed() / 1e6);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
