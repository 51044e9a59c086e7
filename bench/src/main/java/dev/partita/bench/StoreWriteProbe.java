package dev.partita.bench;

import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.WriteBatch;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The memory store's own CPU per write and per short scan, without the engine's noise: records the store batches of
 * {@code count} creates shaped like {@link EngineWriteProbe}'s, replays them into a new {@link MemoryStore} per round
 * and reports the CPU per batch over each round's second half; then the CPU of short bounded scans on the full store:
 * 20 index entries from a random index key (a query's range over one term) and 100 change-log records from a random
 * LSN (a change-feed page).
 *
 * <pre>java -Xmx5g -cp bench/target/benchmarks.jar dev.partita.bench.StoreWriteProbe [count (300000)] [rounds (3)]</pre>
 */
public final class StoreWriteProbe {
    private static final byte INDEX = 0x07;
    private static final byte LOG = 0x03;

    private StoreWriteProbe() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<WriteBatch> batches = record(count);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < rounds; round++) {
            try (MemoryStore store = new MemoryStore()) {
                long cpu = 0;
                for (int i = 0; i < batches.size(); i++) {
                    if (i == batches.size() / 2) {
                        cpu = threads.getCurrentThreadCpuTime();
                    }
                    store.apply(batches.get(i));
                }
                int measured = batches.size() - batches.size() / 2;
                System.out.printf(Locale.ROOT, "round %d: %,d batches, %.2f µs CPU per batch (last %,d)%n", round,
                        batches.size(), (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / measured, measured);
                if (round == rounds - 1) {
                    scans(store, batches, threads);
                }
            }
        }
    }

    /** The batches the engine applies for {@code count} creates, copied (the engine may reuse nothing, but be sure). */
    private static List<WriteBatch> record(int count) {
        List<WriteBatch> batches = new ArrayList<>(count + 16);
        ForwardingStore recorder = new ForwardingStore(new MemoryStore()) {
            @Override
            public void apply(WriteBatch batch) {
                WriteBatch copy = new WriteBatch();
                for (WriteBatch.Op op : batch.ops()) {
                    if (op.isDelete()) {
                        copy.delete(op.key().clone());
                    } else {
                        copy.put(op.key().clone(), op.value().clone());
                    }
                }
                batches.add(copy);
                super.apply(batch);
            }
        };
        Documents docs = new Documents(1024);
        try (Engine engine = Engine.open(recorder, Clock.systemUTC(), Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "bench"), Throughput.NONE);
            engine.createContainer("bench", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                    "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "bench"), Throughput.NONE, 1);
            ContainerHandle items = engine.container("bench", "items");
            for (int i = 0; i < count; i++) {
                String pk = Documents.writePk(i);
                byte[] body = docs.item("probe-" + i, pk, i).toString().getBytes(StandardCharsets.UTF_8);
                items.create(body, RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")));
            }
        }
        return batches;
    }

    private static void scans(MemoryStore store, List<WriteBatch> batches, ThreadMXBean threads) {
        List<byte[]> indexKeys = new ArrayList<>();
        List<byte[]> logKeys = new ArrayList<>();
        for (WriteBatch b : batches) {
            for (WriteBatch.Op op : b.ops()) {
                byte tag = op.key()[0];
                (tag == INDEX ? indexKeys : tag == LOG ? logKeys : new ArrayList<byte[]>()).add(op.key());
            }
        }
        Random random = new Random(7);
        for (int pass = 0; pass < 3; pass++) {
            // an index range bounded by its key's first 5 bytes past the container (one path's terms), 20 entries
            System.out.printf(Locale.ROOT, "pass %d: index scan of 20: %.2f µs CPU; change-log scan of 100: %.2f µs CPU%n",
                    pass, scan(store, indexKeys, 10, 20, random, threads), scan(store, logKeys, 5, 100, random, threads));
        }
    }

    private static double scan(MemoryStore store, List<byte[]> keys, int boundPrefix, int entries, Random random,
            ThreadMXBean threads) {
        int scans = 50_000;
        long sink = 0;
        long cpu = threads.getCurrentThreadCpuTime();
        for (int s = 0; s < scans; s++) {
            byte[] from = keys.get(random.nextInt(keys.size()));
            byte[] to = Bytes.prefixEnd(Arrays.copyOf(from, boundPrefix));
            try (Cursor c = store.scan(from, to)) {
                for (int n = 0; n < entries && c.next(); n++) {
                    sink += c.key().length + c.value().length;
                }
            }
        }
        if (sink == 42) {
            System.out.println();
        }
        return (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / scans;
    }
}
