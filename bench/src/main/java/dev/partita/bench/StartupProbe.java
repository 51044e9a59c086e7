package dev.partita.bench;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Start-up of a server process as a client sees it: from the process's start to its first HTTP answer (any status;
 * a raw {@code GET /} polled every millisecond), and to the official SDK's first requests answered — client build
 * (account read), database and container create, an item create, its point read and a single-partition query — and
 * the server process's CPU time (from /proc) at the first answer and after the point read, which a shared machine
 * disturbs less than the wall time. The SDK in this JVM is warmed first against an in-process Partita, so its own
 * class loading is not counted.
 *
 * <pre>
 * java -DCOSMOS.DISABLE_IMDS_ACCESS=true -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true \
 *   -cp bench/target/benchmarks.jar dev.partita.bench.StartupProbe [--runs 5] [--port 18311] [--fresh DIR] \
 *   -- ./partita serve --http --port 18311 --data DIR
 * </pre>
 *
 * {@code --fresh DIR} deletes DIR before each run (a first start on a new store). Prints one line per run (ms) and
 * the medians.
 */
public final class StartupProbe {
    private static final String[] STEPS = {"first answer", "client (account read)", "db+container created",
        "item created", "point read", "query", "server CPU at first answer", "server CPU at point read"};

    private StartupProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        int runs = 5;
        int port = 18311;
        Path fresh = null;
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--fresh" -> fresh = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<String> command = Arrays.asList(args).subList(Math.min(i + 1, args.length), args.length);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("usage: StartupProbe [--runs N] [--port P] [--fresh DIR] -- command...");
        }
        warmUp();
        List<double[]> results = new ArrayList<>();
        for (int r = 1; r <= runs; r++) {
            if (fresh != null) {
                delete(fresh);
            }
            double[] t = once(command, port);
            results.add(t);
            System.out.printf("run %d: %s%n", r, line(t));
            Thread.sleep(500);
        }
        double[] median = new double[STEPS.length];
        for (int s = 0; s < STEPS.length; s++) {
            int step = s;
            double[] v = results.stream().mapToDouble(t -> t[step]).sorted().toArray();
            median[s] = v[v.length / 2];
        }
        System.out.printf("median of %d: %s%n", runs, line(median));
    }

    private static String line(double[] t) {
        StringBuilder b = new StringBuilder();
        for (int s = 0; s < STEPS.length; s++) {
            b.append(s == 0 ? "" : ", ").append(STEPS[s]).append(' ').append(String.format("%.0f", t[s]));
        }
        return b.append(" ms").toString();
    }

    /** One start: the times of each step after the process start, in ms. */
    private static double[] once(List<String> command, int port) throws Exception {
        double[] t = new double[STEPS.length];
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(new File("/dev/null"))
                .start();
        try {
            while (!answers(port)) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("the server exited with " + p.exitValue());
                }
                if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(60)) {
                    throw new IllegalStateException("no answer within 60 s");
                }
                Thread.sleep(1);
            }
            t[0] = ms(t0);
            t[6] = cpuMs(p.pid());
            sdkSession("http://localhost:" + port + "/", t0, t);
            t[7] = cpuMs(p.pid());
        } finally {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
        return t;
    }

    /** The SDK's first requests; fills t[1..]. */
    private static void sdkSession(String endpoint, long t0, double[] t) {
        try (CosmosClient client = new CosmosClientBuilder().endpoint(endpoint).key(Keys.EMULATOR_PRIMARY)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient()) {
            if (t != null) {
                t[1] = ms(t0);
            }
            client.createDatabaseIfNotExists("probe");
            client.getDatabase("probe").createContainerIfNotExists("items", "/pk");
            CosmosContainer items = client.getDatabase("probe").getContainer("items");
            if (t != null) {
                t[2] = ms(t0);
            }
            ObjectNode doc = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("id", "one").put("pk", "a").put("n", 1);
            items.upsertItem(doc);
            if (t != null) {
                t[3] = ms(t0);
            }
            items.readItem("one", new PartitionKey("a"), ObjectNode.class);
            if (t != null) {
                t[4] = ms(t0);
            }
            items.queryItems("SELECT * FROM c WHERE c.n > 0", new CosmosQueryRequestOptions()
                    .setPartitionKey(new PartitionKey("a")), ObjectNode.class).stream().count();
            if (t != null) {
                t[5] = ms(t0);
            }
        }
    }

    /** Loads and runs the SDK's code paths in this JVM, against an in-process server, so they are not counted. */
    private static void warmUp() {
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false))) {
            for (int i = 0; i < 5; i++) {
                sdkSession(server.endpoint(), 0, null);
            }
        }
    }

    /** Whether something on the port answers HTTP (any status). */
    private static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] head = in.readNBytes(8);
            return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.");
        } catch (IOException e) {
            return false;
        }
    }

    /** The process's CPU time so far (user + system, all threads; 10 ms ticks), from /proc. */
    private static double cpuMs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
