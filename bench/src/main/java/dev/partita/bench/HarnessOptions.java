package dev.partita.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load harness's command line: plain {@code --name value} pairs. {@link #usage()} lists them with their defaults.
 */
record HarnessOptions(
        String endpoint,
        String key,
        String store,
        int items,
        int ops,
        int warmup,
        int warmupSeconds,
        int rounds,
        String targetName,
        List<Integer> concurrency,
        List<BenchOperation> workloads,
        List<BenchOperation> ceilingWorkloads,
        List<String> ceilingModes,
        String client,
        String mixedQuery,
        int maxSeconds,
        int docSize,
        Path out,
        String serve,
        int port,
        int serveSeconds,
        long serverPid,
        boolean verbose) {

    static final String DEFAULT_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private static final java.util.Set<String> OPTIONS = java.util.Set.of("--endpoint", "--key", "--store", "--items",
            "--ops", "--warmup", "--warmup-seconds", "--rounds", "--target-name", "--concurrency", "--workloads",
            "--ceiling-workloads", "--ceiling-modes", "--client", "--mixed-query", "--max-seconds", "--doc-size",
            "--out", "--serve", "--port", "--serve-seconds", "--server-pid");

    static HarnessOptions parse(String[] args) {
        String endpoint = null;
        String key = DEFAULT_KEY;
        String store = "memory";
        int items = 10_000;
        int ops = 100_000;
        int warmup = 10_000;
        int warmupSeconds = 60;
        int rounds = 3;
        String targetName = "partita";
        List<Integer> concurrency = List.of(20, 64);
        List<BenchOperation> workloads = List.of(BenchOperation.ReadLatency, BenchOperation.ReadThroughput, BenchOperation.WriteLatency,
                BenchOperation.WriteThroughput, BenchOperation.Mixed);
        List<BenchOperation> ceiling = List.of(BenchOperation.ReadThroughput, BenchOperation.WriteThroughput);
        List<String> ceilingModes = List.of("inline", "vthread");
        String client = "async";
        String mixedQuery = "pk";
        int maxSeconds = 300;
        int docSize = 1024;
        Path out = Path.of("load-harness-results.md");
        String serve = null;
        int port = 0;
        int serveSeconds = 1800;
        long serverPid = -1;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.println(usage());
                System.exit(0);
            }
            if (a.equals("--verbose")) {
                verbose = true;
                continue;
            }
            if (!OPTIONS.contains(a)) {
                throw new IllegalArgumentException("Unknown option " + a + "\n" + usage());
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("The option " + a + " needs a value.\n" + usage());
            }
            String v = args[++i];
            switch (a) {
                case "--endpoint" -> endpoint = v;
                case "--key" -> key = v;
                case "--store" -> store = oneOf(a, v, "memory", "rocks");
                case "--items" -> items = positive(a, v);
                case "--ops" -> ops = positive(a, v);
                case "--warmup" -> warmup = nonNegative(a, v);
                case "--warmup-seconds" -> warmupSeconds = nonNegative(a, v);
                case "--target-name" -> targetName = v;
                case "--rounds" -> rounds = positive(a, v);
                case "--concurrency" -> concurrency = ints(a, v);
                case "--workloads" -> workloads = BenchOperation.list(v);
                case "--ceiling-workloads" -> ceiling = v.equalsIgnoreCase("none") ? List.of() : BenchOperation.list(v);
                case "--ceiling-modes" -> ceilingModes = modes(a, v);
                case "--client" -> client = oneOf(a, v, "async", "sync");
                case "--mixed-query" -> mixedQuery = oneOf(a, v, "pk", "sdk");
                case "--max-seconds" -> maxSeconds = positive(a, v);
                case "--doc-size" -> docSize = positive(a, v);
                case "--out" -> out = Path.of(v);
                case "--serve" -> serve = oneOf(a, v, "partita", "ceiling");
                case "--port" -> port = nonNegative(a, v);
                case "--serve-seconds" -> serveSeconds = positive(a, v);
                case "--server-pid" -> serverPid = Long.parseLong(v);
                default -> throw new IllegalArgumentException("Unknown option " + a + "\n" + usage());
            }
        }
        if (endpoint != null) {
            String host = java.net.URI.create(endpoint).getHost();
            if (!("localhost".equals(host) || "127.0.0.1".equals(host) || "[::1]".equals(host))) {
                throw new IllegalArgumentException("The harness talks to loopback only; --endpoint must be"
                        + " http://localhost:PORT/ or http://127.0.0.1:PORT/.");
            }
        }
        if (docSize < 200) {
            throw new IllegalArgumentException("--doc-size must be at least 200 bytes.");
        }
        return new HarnessOptions(endpoint, key, store, items, ops, warmup, warmupSeconds, rounds, targetName,
                concurrency, workloads, ceiling, ceilingModes, client,
                mixedQuery, maxSeconds, docSize, out, serve, port, serveSeconds, serverPid, verbose);
    }

    static String usage() {
        return """
                LoadHarness: the official Java SDK (gateway mode, HTTP) against Partita and against a ceiling server.

                  java -cp bench/target/benchmarks.jar dev.partita.bench.LoadHarness [options]

                Run options
                  --endpoint URL          an already running Partita on loopback (default: start one in-process)
                  --key KEY               account key (default: the emulator's)
                  --store memory|rocks    store of the in-process server (default memory; rocks = a temp folder)
                  --items N               items preloaded for reads (default 10000, ~1 KB each)
                  --ops N                 operations per run (default 100000)
                  --warmup N              unrecorded operations before each run (default 10000)
                  --warmup-seconds S      before any run, cycle every workload (N ops each, at the highest
                                          concurrency) for at least S seconds, so the JIT is done (default 60)
                  --concurrency A,B       operations in flight (default 20,64)
                  --workloads W,...       ReadLatency,ReadThroughput,WriteLatency,WriteThroughput,Mixed (default all)
                  --ceiling-workloads W,..  workloads also run against the ceiling server (default
                                          ReadThroughput,WriteThroughput; none to skip)
                  --ceiling-modes M,...   inline (answer on the event loop: the ceiling) and/or vthread (build
                                          and write the answer on a virtual thread, as Partita's gateway does)
                                          (default inline,vthread)
                  --client async|sync     CosmosAsyncContainer + flatMap (default) or the sync client on virtual threads
                  --mixed-query pk|sdk    Mixed's 1% query: pk = SELECT * FROM c WHERE c.pk = @pk (one partition,
                                          10 items; default) or sdk = the SDK tool's SELECT TOP 100 * FROM c ORDER BY
                                          c._ts read in pages of 10
                  --rounds N              runs of each workload compared with a ceiling, each followed by the
                                          ceiling runs; the report takes the median (default 3)
                  --max-seconds S         time bound of one run (default 300)
                  --doc-size BYTES        size of the JSON the client writes (default 1024)
                  --out FILE              the markdown results (default load-harness-results.md)
                  --server-pid PID        with --endpoint: the server's pid, to account its CPU time (/proc)
                  --target-name NAME      the name of the --endpoint target in the table (default partita)
                  --verbose               per-thread CPU of each run

                Serve only (for profiling the server in its own JVM)
                  --serve partita|ceiling --port N [--store memory|rocks] [--serve-seconds S (default 1800)]
                  (--serve ceiling --ceiling-modes vthread: the ceiling with Partita's virtual-thread hand-off)
                """;
    }

    boolean inProcess() {
        return endpoint == null;
    }

    private static String oneOf(String name, String v, String... allowed) {
        String lower = v.toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(lower)) {
                return a;
            }
        }
        throw new IllegalArgumentException(name + " must be one of " + String.join(", ", allowed));
    }

    private static int positive(String name, String v) {
        int n = Integer.parseInt(v.replace("_", ""));
        if (n <= 0) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return n;
    }

    private static int nonNegative(String name, String v) {
        int n = Integer.parseInt(v.replace("_", ""));
        if (n < 0) {
            throw new IllegalArgumentException(name + " must not be negative");
        }
        return n;
    }

    private static List<String> modes(String name, String v) {
        List<String> out = new ArrayList<>();
        for (String s : v.split(",")) {
            out.add(oneOf(name, s.trim(), "inline", "vthread"));
        }
        return List.copyOf(out);
    }

    private static List<Integer> ints(String name, String v) {
        List<Integer> out = new ArrayList<>();
        for (String s : v.split(",")) {
            out.add(positive(name, s.trim()));
        }
        return List.copyOf(out);
    }
}
