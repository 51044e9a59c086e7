package dev.partita.cli;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreException;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
    /** Netty's JFR events for its buffer pool; set it to true to record them. */
    static final String NETTY_JFR = "io.netty.jfr.enabled";
    /** The process id in Netty's channel ids; given here so that Netty need not look it up. */
    static final String NETTY_PROCESS_ID = "io.netty.processId";
    /** The SLF4J provider; named so that SLF4J need not search the class path for one. */
    static final String SLF4J_PROVIDER = "slf4j.provider";
    /** The provider on the class path (slf4j-simple's). */
    static final String SLF4J_SIMPLE = "org.slf4j.simple.SimpleServiceProvider";
    /** SLF4J's own messages; at its default it reports the named provider on the console. */
    static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";
    /** The NIO selector provider; named so that the JDK need not search the class path for one. */
    static final String SELECTOR_PROVIDER = "java.nio.channels.spi.SelectorProvider";
    /** The JDK's built-in selector providers (what {@code SelectorProvider.provider()} falls back to), by platform. */
    private static final List<String> PLATFORM_SELECTOR_PROVIDERS = List.of("sun.nio.ch.EPollSelectorProvider",
            "sun.nio.ch.KQueueSelectorProvider", "sun.nio.ch.WEPollSelectorProvider");

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
        try {
            serve(a, limits, out);
        } catch (UncheckedIOException | StoreException e) {
            // a port in use or a store that cannot open: the reason is the answer, not a stack trace
            err.println("partita serve: " + e.getMessage());
            return 1;
        }
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
        // Netty samples 1 in 128 buffers with a stack trace to find leaks: the tests keep that, a server needs not.
        // Set as the property Netty reads when it initialises, not by ResourceLeakDetector.setLevel: that call
        // initialises Netty's platform probing (~50 ms) on this thread before the store can start opening.
        defaultProperty(LEAK_DETECTION, "disabled");
        // the buffer pool's first chunk registers Netty's event with the flight recorder, which builds JFR's whole
        // metadata repository (annotation parsing, dozens of proxies): ~0.1 s of CPU at start-up for events that
        // nobody records unless they ask
        defaultProperty(NETTY_JFR, "false");
        // Netty's channel ids look the process id up by reflection (it still runs on Java 8), which spins method
        // handles on this thread while it binds
        defaultProperty(NETTY_PROCESS_ID, Long.toString(ProcessHandle.current().pid()));
        // SLF4J finds its provider, and NIO its selector provider, with a ServiceLoader unless a property names it: a
        // search that opens every jar on the class path (84), ~0.1 s of the start apiece before the port can bind
        defaultProperty(SLF4J_PROVIDER, SLF4J_SIMPLE);
        defaultProperty(SLF4J_VERBOSITY, "WARN");
        String selectorProvider = platformSelectorProvider();
        if (selectorProvider != null) {
            defaultProperty(SELECTOR_PROVIDER, selectorProvider);
        }
        // SLF4J initialises once: when two threads reach it together (this one opening the store, the next one probing
        // Netty), it replays what was logged meanwhile and prints a warning about that on the console
        LoggerFactory.getILoggerFactory();
        // three things overlap on the cores: the one-time set-up of what every request uses (Jackson, the HMAC, the
        // first virtual thread), the store's opening, and Netty's set-up and binding on this thread
        Thread.ofPlatform().name("partita-prepare").start(PartitaServer::prepare);
        // the store opens while the port binds: a request that comes first waits for the engine
        CompletableFuture<Engine> opening = new CompletableFuture<>();
        Clock clock = Clock.systemUTC();
        Thread.ofPlatform().name("partita-open").start(() -> {
            try {
                opening.complete(open(a, limits, clock));
            } catch (Throwable t) {
                opening.completeExceptionally(t);
            }
        });
        Keys keys = Keys.emulator();
        PartitaServer server;
        try {
            server = PartitaServer.start(opening, clock, limits,
                    new ServerOptions(a.host, a.port, !a.http, a.data.resolve("tls"), keys, a.noAuth));
        } catch (RuntimeException e) {
            try {
                opening.join().close(); // the store's lock is released before the refusal is reported
            } catch (CompletionException opened) {
                e.addSuppressed(opened.getCause());
            }
            throw e;
        }
        Engine engine;
        try {
            engine = opening.join();
        } catch (CompletionException e) {
            server.close();
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return new Running(engine, server, keys);
    }

    /**
     * The class of this platform's built-in selector provider, the one NIO uses when no provider is named or found, or
     * null on a platform whose provider is not one of these (NIO then searches as it would).
     */
    static String platformSelectorProvider() {
        for (String name : PLATFORM_SELECTOR_PROVIDERS) {
            try {
                Class.forName(name, false, null);
                return name;
            } catch (ClassNotFoundException absent) {
                // another platform's
            }
        }
        return null;
    }

    /** Sets a system property unless the user gave it. */
    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    /** The store and the engine over it, with its background tasks started. */
    private static Engine open(ServeArguments a, Limits limits, Clock clock) {
        Store store = a.inMemory ? new MemoryStore() : RocksStore.open(a.data.resolve("store"));
        Engine engine = Engine.open(store, clock, limits);
        engine.capacity().enforce(a.enforceCapacity).burstCapacity(a.burstCapacity).serverless(a.serverless)
                .defaultConsistency(a.defaultConsistency);
        engine.startBackgroundTasks();
        return engine;
    }

    private static void serve(ServeArguments a, Limits limits, PrintStream out) {
        Running running = start(a, limits);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }, "partita-shutdown"));
        printBanner(a, running.keys(), running.server(), out);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void printBanner(ServeArguments a, Keys keys, PartitaServer server, PrintStream out) {
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
                + (a.changesLimits() ? ", limits changed by flags" : ""));
        if (a.defaultConsistency != Consistency.SESSION) {
            out.println("  default consistency: " + a.defaultConsistency.wireName());
        }
        if (a.noAuth) {
            out.println("  WARNING: --no-auth: every request is accepted without checking its signature.");
        }
    }
}
