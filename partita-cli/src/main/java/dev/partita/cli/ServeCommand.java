package dev.partita.cli;

import dev.partita.core.Engine;
import dev.partita.core.capacity.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
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

    @Override
    public void run() {
        Store store = inMemory ? new MemoryStore() : RocksStore.open(data.resolve("store"));
        Engine engine = Engine.open(store, Clock.systemUTC(), Limits.DEFAULTS);
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
