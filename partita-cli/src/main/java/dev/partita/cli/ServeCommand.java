package dev.partita.cli;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.PrintStream;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * {@code partita serve}: the emulator as a server, on a durable store in {@code ./partita-data} by default. Reads its
 * options itself ({@link ServeArguments}): {@link PartitaCommand#main} hands {@code serve} here before picocli loads.
 */
final class ServeCommand {
    static final String SUMMARY =
            "Start the emulator (HTTPS on https://localhost:8081/ with the well-known emulator key).";

    /** Netty's leak-detection level; set it to keep detection on in a served process. */
    static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    private ServeCommand() {
    }

    /** Runs {@code partita serve args} until the process is stopped; returns the exit code of a refused start. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        ServeArguments a;
        Limits limits;
        try {
            a = ServeArguments.parse(args);
            limits = a.limits();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.print(ServeArguments.usage());
            return 2;
        }
        if (a.help) {
            out.print(ServeArguments.usage());
            return 0;
        }
        if (a.version) {
            out.println(PartitaCommand.VERSION);
            return 0;
        }
        serve(a, limits, out);
        return 0;
    }

    /** A started server and the engine under it. */
    record Running(Engine engine, PartitaServer server, Keys keys) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
            engine.close();
        }
    }

    /** Opens the store and the engine the options ask for and starts the server: what {@code serve} runs. */
    static Running start(ServeArguments a, Limits limits) {
        if (System.getProperty(LEAK_DETECTION) == null) {
            // Netty samples 1 in 128 buffers with a stack trace to find leaks: the tests keep that, a server needs not.
            // Set as the property Netty reads when it initialises, not by ResourceLeakDetector.setLevel: that call
            // initialises Netty's platform probing (~50 ms) on this thread before the store can start opening.
            System.setProperty(LEAK_DETECTION, "disabled");
        }
        // SLF4J initialises once: when two threads reach it together (this one opening the store, the next one probing
        // Netty), it replays what was logged meanwhile and prints a warning about that on the console
        LoggerFactory.getILoggerFactory();
        // Netty's and Jackson's one-time set-up needs nothing of the store: on the other core it overlaps the opening
        Thread.ofPlatform().name("partita-prepare").start(PartitaServer::prepare);
        Store store = a.inMemory ? new MemoryStore() : RocksStore.open(a.data.resolve("store"));
        Engine engine = Engine.open(store, Clock.systemUTC(), limits);
        engine.capacity().enforce(a.enforceCapacity).burstCapacity(a.burstCapacity).serverless(a.serverless);
        engine.startBackgroundTasks();
        Keys keys = Keys.emulator();
        PartitaServer server = PartitaServer.start(engine,
                new ServerOptions(a.host, a.port, !a.http, a.data.resolve("tls"), keys, a.noAuth));
        return new Running(engine, server, keys);
    }

    private static void serve(ServeArguments a, Limits limits, PrintStream out) {
        Running running = start(a, limits);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "partita-shutdown"));
        printBanner(a, limits, running.keys(), running.server(), out);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void printBanner(ServeArguments a, Limits limits, Keys keys, PartitaServer server,
            PrintStream out) {
        out.println("Partita is listening on " + server.endpoint());
        out.println("  explorer: " + server.explorerUrl() + "  (sign in with the key)");
        out.println("  metrics:  " + server.endpoint() + "metrics  (Prometheus)");
        out.println("  key:   " + keys.primary());
        out.println("  store: " + (a.inMemory ? "in memory (nothing is kept)"
                : a.data.resolve("store").toAbsolutePath()));
        if (server.certificatePem() != null) {
            out.println("  TLS:   self-signed certificate " + server.certificatePem().toAbsolutePath()
                    + " — trust it with: keytool -importcert -noprompt -alias partita -cacerts -storepass changeit"
                    + " -file " + server.certificatePem().toAbsolutePath()
                    + "  (or set -DCOSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED=true in the client)");
        } else {
            out.println("  HTTP:  clients need -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true");
        }
        out.println("  capacity: " + (a.serverless ? "serverless, " : "") + (a.enforceCapacity
                ? "enforced (429s beyond each partition's RU/s)" : "not enforced (charges only; --enforce-capacity"
                + " to throttle)") + (a.burstCapacity ? ", burst capacity on" : "")
                + (limits.equals(Limits.DEFAULTS) ? "" : ", limits changed by flags"));
        if (a.noAuth) {
            out.println("  WARNING: --no-auth: every request is accepted without checking its signature.");
        }
    }
}
