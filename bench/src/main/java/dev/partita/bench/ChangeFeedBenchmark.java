package dev.partita.bench;

import dev.partita.core.request.RequestOptions;
import com.azure.cosmos.ChangeFeedProcessor;
import com.azure.cosmos.ChangeFeedProcessorBuilder;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.ChangeFeedProcessorOptions;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.changefeed.ChangeFeedJson;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.request.Scope;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.request.Conditions;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The change feed through the official SDK against an in-process Partita (memory store, plain HTTP, loopback):
 * <ol>
 *   <li>read throughput: drain 100,000 changes of a 4-range container from the beginning with the pull model, at
 *       page sizes 100 (the SDK default) and 1,000, three runs each, changes per second;
 *   <li>processor lag: a latest-version change feed processor (poll delay 100 ms) follows a container while one
 *       writer creates items at a steady rate; lag = delivery time minus write time of each item (same JVM, nanoTime).
 * </ol>
 * Run: {@code java -cp bench/target/benchmarks.jar dev.partita.bench.ChangeFeedBenchmark [changes] [writes/s]
 * [seconds]}. Client and server share the machine's cores.
 */
public final class ChangeFeedBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RANGES = 4;
    private static final int RUS_PER_RANGE = 6000;
    private static final String PAYLOAD = "x".repeat(200);

    private ChangeFeedBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        // the processor's last polls race the server's shutdown at the end: not worth a screen of stack traces
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos.implementation.RxGatewayStoreModel", "off");
        LoadHarness.configureJvm();
        int changes = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
                PartitaServer server = PartitaServer.start(engine,
                        new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false))) {
            readThroughput(engine, server, changes);
            processorLag(server, rate, seconds);
        }
        System.exit(0);
    }

    private static void readThroughput(Engine engine, PartitaServer server, int changes) {
        try (CosmosClient client = LoadHarness.builder(server.endpoint(), Keys.EMULATOR_PRIMARY).buildClient()) {
            client.createDatabaseIfNotExists("bench");
            client.getDatabase("bench").createContainer(new CosmosContainerProperties("feed", "/pk"),
                    ThroughputProperties.createManualThroughput(RANGES * RUS_PER_RANGE));
            CosmosContainer c = client.getDatabase("bench").getContainer("feed");
            // preload in process: the write path is not what this measures
            ContainerInfo info = engine.readContainer("bench", "feed");
            ContainerHandle items = engine.container(info);
            for (int i = 0; i < changes; i++) {
                String pk = "k" + (i % 1000);
                items.create(("{\"id\":\"i" + i + "\",\"pk\":\""
                        + pk + "\",\"n\":" + i + ",\"payload\":\"" + PAYLOAD + "\"}").getBytes(StandardCharsets.UTF_8), RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")));
            }
            System.out.printf(Locale.ROOT, "read: %,d changes in %d ranges, ~%d bytes each%n", changes, RANGES,
                    PAYLOAD.length() + 230);
            for (int run = 1; run <= 2; run++) {
                for (int pageSize : new int[] {100, 1000}) {
                    long t0 = System.nanoTime();
                    long n = engineDrain(engine, info, pageSize);
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf(Locale.ROOT, "engine only (no HTTP, no SDK): page size %5d  run %d  %,d changes"
                            + " in %.2f s = %,.0f changes/s%n", pageSize, run, n, s, n / s);
                }
            }
            drain(c, 100, changes); // warm-up
            for (int pageSize : new int[] {100, 1000}) {
                for (int run = 1; run <= 3; run++) {
                    long t0 = System.nanoTime();
                    long n = drain(c, pageSize, changes);
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf(Locale.ROOT, "read: page size %5d  run %d  %,d changes in %.2f s = %,.0f changes/s%n",
                            pageSize, run, n, s, n / s);
                }
            }
        }
    }

    /** The same reads straight from the engine: one scope per physical partition, page by page until empty. */
    private static long engineDrain(Engine engine, ContainerInfo info, int pageSize) {
        long n = 0;
        for (PhysicalPartition p : engine.readContainer(info.databaseId(), info.id()).partitions().partitions()) {
            ChangeFeedStart start = ChangeFeedStart.beginning();
            while (true) {
                ChangeFeedPage page = engine.container(info).changeFeed(start, ChangeFeedMode.LATEST_VERSION, RequestOptions.scoped(Scope.range(p.id())).withMaxItemCount(pageSize));
                if (page.notModified()) {
                    break;
                }
                ChangeFeedJson.page(info.rid(), page.changes(), ChangeFeedJson.Shape.DOCUMENT, info.partitionKey());
                n += page.changes().size();
                start = ChangeFeedStart.after(page.continuationLsn());
            }
        }
        return n;
    }

    private static long drain(CosmosContainer c, int pageSize, int expected) {
        long n = 0;
        CosmosChangeFeedRequestOptions o = CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(pageSize);
        for (FeedResponse<JsonNode> page : c.queryChangeFeed(o, JsonNode.class).iterableByPage()) {
            n += page.getResults().size();
        }
        if (n != expected) {
            throw new IllegalStateException("read " + n + " changes, expected " + expected);
        }
        return n;
    }

    private static void processorLag(PartitaServer server, int rate, int seconds) throws Exception {
        CosmosAsyncClient client = LoadHarness.builder(server.endpoint(), Keys.EMULATOR_PRIMARY)
                .contentResponseOnWriteEnabled(true).buildAsyncClient();
        try {
            client.createDatabaseIfNotExists("bench").block();
            var db = client.getDatabase("bench");
            db.createContainer(new CosmosContainerProperties("lagged", "/pk"),
                    ThroughputProperties.createManualThroughput(RANGES * RUS_PER_RANGE)).block();
            db.createContainer(new CosmosContainerProperties("leases", "/id"),
                    ThroughputProperties.createManualThroughput(400)).block();
            CosmosAsyncContainer feed = db.getContainer("lagged");
            Histogram lagMicros = new Histogram(3_600_000_000L, 3);
            AtomicLong delivered = new AtomicLong();
            Duration pollDelay = Duration.ofMillis(100);
            ChangeFeedProcessor p = new ChangeFeedProcessorBuilder()
                    .hostName("bench")
                    .feedContainer(feed)
                    .leaseContainer(db.getContainer("leases"))
                    .handleLatestVersionChanges((List<ChangeFeedProcessorItem> items) -> {
                        long now = System.nanoTime();
                        for (ChangeFeedProcessorItem i : items) {
                            long at = i.getCurrent().get("writtenAt").asLong();
                            synchronized (lagMicros) {
                                lagMicros.recordValue(Math.max(0, (now - at) / 1000));
                            }
                            delivered.incrementAndGet();
                        }
                    })
                    .options(new ChangeFeedProcessorOptions().setFeedPollDelay(pollDelay)
                            .setLeaseRenewInterval(Duration.ofSeconds(5)).setLeaseAcquireInterval(Duration.ofSeconds(5))
                            .setLeaseExpirationInterval(Duration.ofSeconds(30)))
                    .buildChangeFeedProcessor();
            p.start().block();
            Thread.sleep(2000); // leases acquired, every range polled once
            long intervalNanos = 1_000_000_000L / rate;
            long total = (long) rate * seconds;
            long start = System.nanoTime();
            for (long i = 0; i < total; i++) {
                long due = start + i * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                ObjectNode doc = JSON.createObjectNode().put("id", "w" + i).put("pk", "k" + (i % 1000))
                        .put("payload", PAYLOAD).put("writtenAt", System.nanoTime());
                feed.createItem(doc).block();
            }
            double achieved = total / ((System.nanoTime() - start) / 1e9);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (delivered.get() < total && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            p.stop().block();
            synchronized (lagMicros) {
                System.out.printf(Locale.ROOT, "lag: %d writes/s asked (%.0f achieved) for %d s, poll delay %d ms;"
                        + " delivered %,d of %,d%n", rate, achieved, seconds, pollDelay.toMillis(), delivered.get(),
                        total);
                System.out.printf(Locale.ROOT, "lag: p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  max %.1f ms%n",
                        lagMicros.getValueAtPercentile(50) / 1000.0, lagMicros.getValueAtPercentile(90) / 1000.0,
                        lagMicros.getValueAtPercentile(99) / 1000.0, lagMicros.getMaxValue() / 1000.0);
            }
        } finally {
            client.close();
        }
    }
}
