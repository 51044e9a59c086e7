package dev.partita.bench;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.examples.catalogue.CatalogueGenerator;
import dev.partita.examples.catalogue.CatalogueStudy;
import dev.partita.examples.catalogue.Policies;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * Times the seed of seed 003 as the catalogue's tool runs it: the catalogue's vehicles, its tuned policy and its SDK
 * seed ({@code CosmosContainer.executeBulkOperations} of one upsert per vehicle), against Partita started in this JVM
 * (in-memory store, capacity enforcement off) or a running server. Only the bulk call is timed; it reports the wall
 * time and the CPU time of the client and of the server.
 *
 * <pre>
 * java -DCOSMOS.DISABLE_IMDS_ACCESS=true -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true -Xmx6g \
 *   -cp bench/target/benchmarks.jar dev.partita.bench.SeedTimer [vehicles (100000)] [rounds (1)]
 *   [endpoint server-pid]
 * </pre>
 *
 * Each round seeds a new container of a fresh database (the first round on a cold JVM, as the tool's seed is).
 */
public final class SeedTimer {
    private SeedTimer() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        String endpoint = args.length > 2 ? args[2] : null;
        long serverPid = args.length > 3 ? Long.parseLong(args[3]) : -1;
        Engine engine = null;
        PartitaServer server = null;
        try {
            if (endpoint == null) {
                engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
                server = PartitaServer.start(engine,
                        new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false));
                endpoint = server.endpoint();
            }
            List<ObjectNode> vehicles = CatalogueGenerator.vehicles(count, 3);
            CpuMeter meter = new CpuMeter(serverPid);
            try (CosmosClient client = LoadHarness.builder(endpoint, Keys.EMULATOR_PRIMARY).buildClient()) {
                for (int round = 1; round <= rounds; round++) {
                    // named after this process too, so that a second timer can seed the same (warm) server
                    String database = "seed-" + ProcessHandle.current().pid() + "-" + round;
                    client.createDatabaseIfNotExists(database);
                    CatalogueStudy study = new CatalogueStudy(client.getDatabase(database));
                    CosmosContainer container = study.create("catalogue", Policies.tuned(), 1_000);
                    CpuMeter.Snapshot before = meter.snapshot();
                    CatalogueStudy.Seeding seeding = study.seed(container, vehicles);
                    report(round, seeding, meter.between(before, meter.snapshot()), serverPid >= 0);
                }
            }
        } finally {
            if (server != null) {
                server.close();
            }
            if (engine != null) {
                engine.close();
            }
        }
    }

    private static void report(int round, CatalogueStudy.Seeding s, CpuMeter.Usage u, boolean external) {
        long server = external ? u.serverNs() : u.byRole().get("server-io") + u.byRole().get("server-vthreads");
        long client = u.byRole().get("sdk") + u.byRole().get("harness");
        System.out.printf(Locale.ROOT, "round %d: %,d vehicles written, %,d failed, %.0f RU: wall %.1f s, CPU client"
                        + " %.1f s, server %.1f s, GC+JIT %.1f s; machine %.2f of %d cores busy%n", round,
                s.documents(), s.failed(), s.totalCharge(), s.seconds(), client / 1e9, server / 1e9,
                u.byRole().get("jvm-other") / 1e9, u.coresBusy(), u.cores());
    }
}
