package dev.partita.bench;

import dev.partita.core.request.RequestOptions;
import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Flux;

/**
 * The SDK load harness: the official Java SDK in gateway mode (HTTP, loopback) against Partita, and against
 * {@link CeilingServer} in the same run, with the workloads of the SDK's own benchmark tool. Prints a markdown table
 * (throughput, latency percentiles, CPU per operation by role) and writes it to {@code --out}.
 *
 * <pre>
 * java -DCOSMOS.DISABLE_IMDS_ACCESS=true -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true -Xmx6g \
 *     -cp bench/target/benchmarks.jar dev.partita.bench.LoadHarness [--help]
 * </pre>
 *
 * Every loop is bounded: {@code --ops} operations per run and {@code --max-seconds} per run; only loopback addresses
 * are contacted.
 */
public final class LoadHarness {
    private static final String DATABASE = "bench";
    private static final String CONTAINER = "items";

    private LoadHarness() {
    }

    public static void main(String[] args) throws Exception {
        configureJvm();
        HarnessOptions o;
        try {
            o = HarnessOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (o.serve() != null) {
            serve(o);
            return;
        }
        System.exit(run(o));
    }

    /** The SDK reads these into static finals: they must be set before its first class initializes. */
    static void configureJvm() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setDefault("org.slf4j.simpleLogger.log.com.azure", "error");
        setDefault("org.slf4j.simpleLogger.log.dev.partita", "warn");
        // as `partita serve` runs (ServeCommand): Netty's default samples 1 in 128 buffers with a stack trace, which
        // cost an in-process server ~1.5% of its CPU per write (perf, session 10)
        setDefault("io.netty.leakDetection.level", "disabled");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    static int run(HarnessOptions o) throws Exception {
        Path tempDir = null;
        Engine engine = null;
        PartitaServer server = null;
        List<CeilingServer> ceilings = new ArrayList<>();
        List<AutoCloseable> clients = new ArrayList<>();
        String startedAt = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        try {
            String endpoint = o.endpoint();
            if (o.inProcess()) {
                Store store;
                if (o.store().equals("rocks")) {
                    tempDir = Files.createTempDirectory("partita-load");
                    store = RocksStore.open(tempDir);
                } else {
                    store = new MemoryStore();
                }
                engine = Engine.open(store, Clock.systemUTC(), Limits.DEFAULTS);
                server = PartitaServer.start(engine,
                        new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false));
                endpoint = server.endpoint();
            }
            log("Partita: " + endpoint + (o.inProcess() ? " (in-process, " + o.store() + " store)" : " (external)"));
            CpuMeter meter = new CpuMeter(o.serverPid());
            Documents docs = new Documents(o.docSize());

            CosmosAsyncClient partitaAsync = builder(endpoint, o.key()).buildAsyncClient();
            clients.add(partitaAsync);
            CosmosAsyncContainer container = setUp(partitaAsync);
            preload(container, docs, o.items(), o.maxSeconds());
            LoadDriver partita = driver(o, endpoint, container, docs, meter, clients);

            // the ceilings: "ceiling" answers on the event loop, "ceiling-vt" hands each request to a virtual thread
            Map<String, LoadDriver> ceilingDrivers = new LinkedHashMap<>();
            if (!o.ceilingWorkloads().isEmpty()) {
                for (String mode : o.ceilingModes()) {
                    CeilingServer cs = CeilingServer.start(0, Runtime.getRuntime().availableProcessors(),
                            docs.storedItem(), mode.equals("vthread"));
                    ceilings.add(cs);
                    String name = mode.equals("vthread") ? "ceiling-vt" : "ceiling";
                    log("Ceiling (" + mode + "): " + cs.endpoint());
                    CosmosAsyncClient c = builder(cs.endpoint(), o.key()).buildAsyncClient();
                    clients.add(c);
                    CosmosAsyncContainer cc = c.getDatabase(DATABASE).getContainer(CONTAINER);
                    ceilingDrivers.put(name, driver(o, cs.endpoint(), cc, docs, meter, clients));
                }
            }

            List<RunResult> results = new ArrayList<>();
            String tag = "h" + Long.toString(System.currentTimeMillis(), 36);
            int runNo = 0;
            Duration maxTime = Duration.ofSeconds(o.maxSeconds());
            if (o.warmup() > 0 && o.warmupSeconds() > 0) {
                // JIT warm-up before anything is measured: on 2 cores the compiler threads compete with the load, and
                // C2 keeps compiling for about a minute of load; a run measured meanwhile is slow (GC+JIT column)
                int top = o.concurrency().stream().mapToInt(Integer::intValue).max().orElse(20);
                long t0 = System.nanoTime();
                long until = t0 + TimeUnit.SECONDS.toNanos(o.warmupSeconds());
                int cycles = 0;
                while (System.nanoTime() < until && cycles < 20) {
                    cycles++;
                    for (BenchOperation w : o.workloads()) {
                        partita.run(o.targetName(), w, top, o.warmup(), maxTime, tag + "-jit" + runNo++);
                    }
                    for (BenchOperation w : o.ceilingWorkloads()) {
                        for (Map.Entry<String, LoadDriver> e : ceilingDrivers.entrySet()) {
                            e.getValue().run(e.getKey(), w, top, o.warmup(), maxTime, tag + "-jit" + runNo++);
                        }
                    }
                }
                log(String.format("JIT warm-up: %d cycles of %d ops of every workload in %.1f s", cycles,
                        o.warmup(), (System.nanoTime() - t0) / 1e9));
            }
            // each ceiling run right after the Partita run it is compared with, so drift affects both alike; workloads
            // compared with a ceiling run --rounds times (the report takes the median)
            for (BenchOperation w : o.workloads()) {
                boolean compared = o.ceilingWorkloads().contains(w) && !ceilingDrivers.isEmpty();
                for (int c : o.concurrency()) {
                    for (int round = 1; round <= (compared ? o.rounds() : 1); round++) {
                        results.add(measure(partita, o.targetName(), w, c, o, maxTime, tag + "-" + runNo++, round));
                        writePartial(results, o, startedAt, endpoint);
                        if (compared) {
                            for (Map.Entry<String, LoadDriver> e : ceilingDrivers.entrySet()) {
                                results.add(measure(e.getValue(), e.getKey(), w, c, o, maxTime, tag + "-" + runNo++,
                                        round));
                                writePartial(results, o, startedAt, endpoint);
                            }
                        }
                    }
                }
            }
            for (BenchOperation w : o.ceilingWorkloads()) {
                if (!o.workloads().contains(w)) {
                    for (int c : o.concurrency()) {
                        for (Map.Entry<String, LoadDriver> e : ceilingDrivers.entrySet()) {
                            results.add(measure(e.getValue(), e.getKey(), w, c, o, maxTime, tag + "-" + runNo++, 1));
                        }
                    }
                }
            }
            String report = ResultTable.render(results, o, startedAt, sdkVersion(), endpoint);
            System.out.println();
            System.out.println(report);
            Files.writeString(o.out(), report);
            log("Results written to " + o.out().toAbsolutePath());
            return 0;
        } finally {
            for (AutoCloseable c : clients) {
                try {
                    c.close();
                } catch (Exception e) {
                    log("closing a client: " + e);
                }
            }
            for (CeilingServer cs : ceilings) {
                cs.close();
            }
            if (server != null) {
                server.close();
            }
            if (engine != null) {
                engine.close();
            }
            if (tempDir != null) {
                deleteTree(tempDir);
            }
        }
    }

    private static LoadDriver driver(HarnessOptions o, String endpoint, CosmosAsyncContainer async,
            Documents docs, CpuMeter meter, List<AutoCloseable> clients) {
        CosmosContainer sync = null;
        if (o.client().equals("sync")) {
            CosmosClient client = builder(endpoint, o.key()).buildClient();
            clients.add(client);
            sync = client.getDatabase(DATABASE).getContainer(CONTAINER);
        }
        return new LoadDriver(async, sync, docs, o.items(), o.mixedQuery(), meter);
    }

    /** Cores busy outside the harness above which a run is taken again (others' builds share these 2 cores). */
    static final double NOISE_CORES = 0.25;
    /** Attempts per measured run when other processes disturb it; the quietest attempt is kept. */
    static final int MAX_ATTEMPTS = 3;
    private static final Duration NOISE_PAUSE = Duration.ofSeconds(30);

    private static RunResult measure(LoadDriver d, String target, BenchOperation w, int c, HarnessOptions o,
            Duration maxTime, String tag, int round) {
        RunResult best = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            if (o.warmup() > 0) {
                RunResult warm = d.run(target, w, c, o.warmup(), maxTime, tag + "w" + attempt);
                if (warm.errors() > 0) {
                    log("  warm-up errors: " + warm.errorsByCode());
                }
            }
            System.gc(); // start every measured run from the same heap state
            RunResult r = d.run(target, w, c, o.ops(), maxTime, tag + "a" + attempt).withRound(round, attempt);
            log(String.format("%-10s %-16s c=%-3d round %d: %8.0f ops/s  p50 %6.2f  p99 %6.2f  p99.9 %6.2f ms"
                            + "  errors %d%s  cores busy %.2f (%.2f outside)", target, w, c, round, r.opsPerSecond(),
                    r.ms(50), r.ms(99), r.ms(99.9), r.errors(), r.errors() > 0 ? " " + r.errorsByCode() : "",
                    r.cpu().coresBusy(), r.outsideCores()));
            if (o.verbose()) {
                r.cpu().byThread().entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                        .forEach(e -> log(String.format("    %-50s %8.1f µs/op", e.getKey(),
                                e.getValue() / 1e3 / Math.max(1, r.completed() + r.errors()))));
                log("    roles " + r.cpu().byRole() + " process " + r.cpu().processNs());
            }
            if (best == null || r.outsideCores() < best.outsideCores()) {
                best = r;
            }
            if (r.outsideCores() <= NOISE_CORES) {
                break;
            }
            log(String.format("  %.2f cores were busy outside the harness during this run: %s", r.outsideCores(),
                    attempt < MAX_ATTEMPTS ? "measuring again in " + NOISE_PAUSE.toSeconds() + " s"
                            : "keeping the quietest attempt"));
            if (attempt < MAX_ATTEMPTS) {
                try {
                    Thread.sleep(NOISE_PAUSE); // let a short burst of someone else's work pass
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return best;
    }

    /** The report so far, so a run stopped early (time bound, Ctrl-C) still leaves its numbers. */
    private static void writePartial(List<RunResult> results, HarnessOptions o, String startedAt, String endpoint) {
        try {
            Files.writeString(o.out(), "(partial: the run is not finished)\n\n"
                    + ResultTable.render(results, o, startedAt, sdkVersion(), endpoint));
        } catch (IOException | RuntimeException e) {
            log("could not write the partial report: " + e);
        }
    }

    static CosmosClientBuilder builder(String endpoint, String key) {
        return new CosmosClientBuilder()
                .endpoint(endpoint)
                .key(key)
                .gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION)
                .endpointDiscoveryEnabled(false);
    }

    private static CosmosAsyncContainer setUp(CosmosAsyncClient client) {
        client.createDatabaseIfNotExists(DATABASE).block(Duration.ofSeconds(60));
        client.getDatabase(DATABASE)
                .createContainerIfNotExists(new CosmosContainerProperties(CONTAINER, "/pk"))
                .block(Duration.ofSeconds(60));
        return client.getDatabase(DATABASE).getContainer(CONTAINER);
    }

    private static void preload(CosmosAsyncContainer container, Documents docs, int items, int maxSeconds) {
        long t0 = System.nanoTime();
        Flux.range(0, items)
                .flatMap(i -> container.upsertItem(docs.item(Documents.readId(i), Documents.readPk(i), i),
                        new PartitionKey(Documents.readPk(i)), new CosmosItemRequestOptions()), 64)
                .blockLast(Duration.ofSeconds(maxSeconds));
        log(String.format("Preloaded %d items of %d bytes in %.1f s", items, docs.size(),
                (System.nanoTime() - t0) / 1e9));
    }

    /** {@code --serve}: a server alone in this JVM (to profile it apart from the client), for a bounded time. */
    private static void serve(HarnessOptions o) throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        if (o.serve().equals("ceiling")) {
            try (CeilingServer c = CeilingServer.start(o.port(), Runtime.getRuntime().availableProcessors(),
                    new Documents(o.docSize()).storedItem(), o.ceilingModes().equals(List.of("vthread")))) {
                log("Ceiling serving on " + c.endpoint() + " for at most " + o.serveSeconds() + " s");
                stop.await(o.serveSeconds(), TimeUnit.SECONDS);
            }
            return;
        }
        Path dir = o.store().equals("rocks") ? Files.createTempDirectory("partita-load") : null;
        try (Engine engine = Engine.open(dir != null ? RocksStore.open(dir) : new MemoryStore(), Clock.systemUTC(),
                Limits.DEFAULTS);
                PartitaServer s = PartitaServer.start(engine,
                        new ServerOptions("127.0.0.1", o.port(), false, null, Keys.emulator(), false))) {
            log("Partita serving on " + s.endpoint() + " (" + o.store() + ", pid " + ProcessHandle.current().pid()
                    + ") for at most " + o.serveSeconds() + " s");
            stop.await(o.serveSeconds(), TimeUnit.SECONDS);
        } finally {
            if (dir != null) {
                deleteTree(dir);
            }
        }
    }

    static String sdkVersion() {
        ClassLoader loader = CosmosClientBuilder.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream("azure-cosmos.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "?");
        } catch (IOException e) {
            return "?";
        }
    }

    static void log(String s) {
        System.err.printf("[harness %7.1fs] %s%n",
                java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0, s);
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log("could not delete " + dir + ": " + e);
        }
    }
}
