package dev.partita.cli;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import io.netty.util.ResourceLeakDetector;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code partita serve}: the emulator as a server, on a durable store in {@code ./partita-data} by default. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Start the emulator (HTTPS on https://localhost:8081/ with the well-known emulator key).")
public final class ServeCommand implements Runnable {

    @Option(names = "--port", description = "Port to listen on (default: ${DEFAULT-VALUE}; 0 = any free port).")
    int port = 8081;

    @Option(names = "--host", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host = "localhost";

    @Option(names = "--http", description = "Serve plain HTTP instead of HTTPS.")
    boolean http;

    @Option(names = "--data", description = "Data folder of the durable store and the TLS certificate"
            + " (default: ${DEFAULT-VALUE}).")
    Path data = Path.of("partita-data");

    @Option(names = "--in-memory", description = "Keep everything in memory; nothing survives a restart.")
    boolean inMemory;

    @Option(names = "--no-auth", description = "Accept requests without checking their signature (local tinkering"
            + " only).")
    boolean noAuth;

    @Option(names = "--enforce-capacity", description = "Throttle (429) requests beyond a physical partition's"
            + " RU/s budget, as the service does. Off by default: charges are always computed and returned.")
    boolean enforceCapacity;

    @Option(names = "--burst-capacity", description = "Let idle partitions bank burst capacity (the account feature).")
    boolean burstCapacity;

    @Option(names = "--serverless", description = "Behave as a serverless account: no provisioned throughput.")
    boolean serverless;

    @Option(names = "--limits-scale", paramLabel = "FACTOR", description = "Scale the partition storage limits"
            + " (20 GB logical, 50 GB physical) for simulations, e.g. 1/1000 or 0.001.")
    String limitsScale;

    @Option(names = "--limit", paramLabel = "NAME=VALUE", description = "Set one limit, e.g. --limit"
            + " maxLogicalPartitionBytes=1048576 or --limit throughputSplitDelay=PT5M (repeatable; applied after"
            + " --limits-scale).")
    java.util.Map<String, String> limitOverrides = new java.util.LinkedHashMap<>();

    /** Netty's leak-detection level; set it to keep detection on in a served process. */
    static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    /** The limits the flags ask for. */
    Limits limits() {
        Limits l = Limits.DEFAULTS;
        if (limitsScale != null) {
            l = l.scaled(parseFactor(limitsScale));
        }
        for (java.util.Map.Entry<String, String> e : limitOverrides.entrySet()) {
            l = l.with(e.getKey(), e.getValue());
        }
        return l;
    }

    static double parseFactor(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            return slash < 0 ? Double.parseDouble(t)
                    : Double.parseDouble(t.substring(0, slash)) / Double.parseDouble(t.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--limits-scale needs a number or a fraction like 1/1000; got '"
                    + text + "'.");
        }
    }

    @Override
    public void run() {
        if (System.getProperty(LEAK_DETECTION) == null) {
            // Netty samples 1 in 128 buffers with a stack trace to find leaks: the tests keep that, a server needs not
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        Limits limits = limits();
        Store store = inMemory ? new MemoryStore() : RocksStore.open(data.resolve("store"));
        Engine engine = Engine.open(store, Clock.systemUTC(), limits);
        engine.capacity().enforce(enforceCapacity).burstCapacity(burstCapacity).serverless(serverless);
        engine.startBackgroundTasks();
        Keys keys = Keys.emulator();
        PartitaServer server = PartitaServer.start(engine,
                new ServerOptions(host, port, !http, data.resolve("tls"), keys, noAuth));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            engine.close();
            stopped.countDown();
        }, "partita-shutdown"));
        System.out.println("Partita is listening on " + server.endpoint());
        System.out.println("  explorer: " + server.explorerUrl() + "  (sign in with the key)");
        System.out.println("  metrics:  " + server.endpoint() + "metrics  (Prometheus)");
        System.out.println("  key:   " + keys.primary());
        System.out.println("  store: " + (inMemory ? "in memory (nothing is kept)" : data.resolve("store").toAbsolutePath()));
        if (server.certificatePem() != null) {
            System.out.println("  TLS:   self-signed certificate " + server.certificatePem().toAbsolutePath()
                    + " — trust it with: keytool -importcert -noprompt -alias partita -cacerts -storepass changeit"
                    + " -file " + server.certificatePem().toAbsolutePath()
                    + "  (or set -DCOSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED=true in the client)");
        } else {
            System.out.println("  HTTP:  clients need -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true");
        }
        System.out.println("  capacity: " + (serverless ? "serverless, " : "") + (enforceCapacity
                ? "enforced (429s beyond each partition's RU/s)" : "not enforced (charges only; --enforce-capacity"
                + " to throttle)") + (burstCapacity ? ", burst capacity on" : "")
                + (limits.equals(Limits.DEFAULTS) ? "" : ", limits changed by flags"));
        if (noAuth) {
            System.out.println("  WARNING: --no-auth: every request is accepted without checking its signature.");
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
