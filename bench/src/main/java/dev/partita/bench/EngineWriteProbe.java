package dev.partita.bench;

import dev.partita.core.Engine;
import dev.partita.core.ContainerHandle;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The engine's CPU per point write without the SDK or HTTP: one thread creates {@code count} items shaped like the
 * load harness's ({@link Documents}: 1 KB, partition keys {@code w-0..w-999}, the default indexing policy) in an
 * in-memory container and reports the thread's CPU time per create over the second half (a store already holding
 * the first half's keys, as after the harness's warm-up). With {@code upserts}, it upserts 10,000 items in turn
 * instead (every write after the first 10,000 replaces a version); with {@code rocks}, the container is on a
 * {@link RocksStore} in a new temporary folder (the thread's CPU excludes RocksDB's own background threads).
 *
 * <pre>java -Xmx5g -cp bench/target/benchmarks.jar dev.partita.bench.EngineWriteProbe [count (300000)] [creates|upserts]
 *     [memory|rocks]</pre>
 */
public final class EngineWriteProbe {
    private EngineWriteProbe() {
    }

    public static void main(String[] args) throws IOException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        boolean upserts = args.length > 1 && args[1].equals("upserts");
        boolean rocks = args.length > 2 && args[2].equals("rocks");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Documents docs = new Documents(1024);
        Path folder = rocks ? Files.createTempDirectory("partita-write-probe") : null;
        Store store = rocks ? RocksStore.open(folder) : new MemoryStore();
        try (Engine engine = Engine.open(store, Clock.systemUTC(), Limits.DEFAULTS)) {
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
                int n = upserts ? i % 10_000 : i;
                String pk = Documents.writePk(n);
                byte[] body = docs.item("probe-" + n, pk, i).toString().getBytes(StandardCharsets.UTF_8);
                RequestOptions at = RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]"));
                if (upserts) {
                    items.upsert(body, at);
                } else {
                    items.create(body, at);
                }
            }
            int measured = count - count / 2;
            String what = upserts ? "upserts" : "creates";
            System.out.printf(Locale.ROOT, "%,d %s of 1 KB (%s): %.1f µs CPU and %.1f µs wall per write (last %,d)%n",
                    count, what, rocks ? "rocks" : "memory", (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / measured,
                    (System.nanoTime() - wall) / 1e3 / measured, measured);
        }
        if (folder != null) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
