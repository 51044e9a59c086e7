package dev.partita.examples.catalogue;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Prints the record's tables (seed 003) next to Partita's figures: the seed's total request units under the tuned
 * and the default indexing policy, and the seven queries' charges.
 *
 * <p>Usage: {@code CatalogueReport [endpoint] [key] [vehicles] [idle seconds]}; defaults {@code http://localhost:8081/},
 * the emulator key, 100,000 vehicles and no idle time. Idle seconds leave the new containers unused before seeding, so
 * that a server with burst capacity ({@code partita serve --enforce-capacity --burst-capacity}) banks what they leave
 * unused and the seed can run faster than the RU/s arithmetic allows.
 */
public final class CatalogueReport {
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    /** The record's container throughput. */
    static final int THROUGHPUT = 1_000;
    static final double RECORD_TUNED_SEED_RU = 884_479;
    static final double RECORD_DEFAULT_TO_TUNED = 1.8;
    /** The record's figures for the seven queries on the tuned container (null: the record gives none). */
    static final Double[] RECORD_QUERY_RU = {1.00, 2.83, 5.86, 5.98, 8.12, null, null};

    private CatalogueReport() {
    }

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : "http://localhost:8081/";
        String key = args.length > 1 ? args[1] : EMULATOR_KEY;
        int vehicles = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        java.time.Duration idle = java.time.Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 0);
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
        try (CosmosClient client = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .endpointDiscoveryEnabled(false).buildClient()) {
            run(client, System.out, vehicles, idle);
        }
    }

    /** Runs the study in a database of its own and removes it afterwards. */
    public static void run(CosmosClient client, PrintStream out, int count) {
        run(client, out, count, java.time.Duration.ZERO);
    }

    /** As {@link #run(CosmosClient, PrintStream, int)}, leaving the containers idle for a while before seeding. */
    public static void run(CosmosClient client, PrintStream out, int count, java.time.Duration idleBeforeSeeding) {
        String name = "catalogue-report-" + UUID.randomUUID().toString().substring(0, 8);
        client.createDatabase(name);
        CosmosDatabase database = client.getDatabase(name);
        try {
            CatalogueStudy study = new CatalogueStudy(database);
            List<ObjectNode> vehicles = CatalogueGenerator.vehicles(count, 3);
            CosmosContainer tuned = study.create("catalogue", Policies.tuned(), THROUGHPUT);
            CosmosContainer everything = study.create("catalogue-default", Policies.everything(), THROUGHPUT);
            sleep(idleBeforeSeeding);
            CatalogueStudy.Seeding tunedSeed = study.seed(tuned, vehicles);
            CatalogueStudy.Seeding defaultSeed = study.seed(everything, vehicles);
            double scale = count / 100_000.0;
            out.printf(Locale.ROOT, "Catalogue (seed 003): %,d vehicles keyed /make, %,d RU/s%s%n%n", count, THROUGHPUT,
                    idleBeforeSeeding.isZero() ? "" : ", containers idle " + idleBeforeSeeding.toSeconds()
                            + " s before seeding");
            out.printf(Locale.ROOT, "%-44s %14s %14s %8s%n", "seeding", "record", "Partita", "ratio");
            out.printf(Locale.ROOT, "%-44s %14.0f %14.0f %8.2f%n", "total RU, tuned policy (record scaled)",
                    RECORD_TUNED_SEED_RU * scale, tunedSeed.totalCharge(),
                    tunedSeed.totalCharge() / (RECORD_TUNED_SEED_RU * scale));
            double perWrite = defaultSeed.totalCharge() / tunedSeed.totalCharge();
            out.printf(Locale.ROOT, "%-44s %14.2f %14.2f %8.2f%n", "default policy / tuned policy, per write",
                    RECORD_DEFAULT_TO_TUNED, perWrite, perWrite / RECORD_DEFAULT_TO_TUNED);
            out.printf(Locale.ROOT, "%-44s %14s %14d%n", "documents failed after the SDK's retries", "8,407 (default)",
                    tunedSeed.failed() + defaultSeed.failed());
            // the bulk API does not report its 429 retries per item: with enforcement on, a seed that takes as long as
            // the RU arithmetic is the throttling's evidence; faster means burst capacity (or enforcement off)
            out.printf(Locale.ROOT, "%-44s %14s %14.1f%n", "tuned seed, seconds (RU arithmetic: "
                    + String.format(Locale.ROOT, "%.1f", tunedSeed.totalCharge() / THROUGHPUT) + ")",
                    "12.8 min of 14.7", tunedSeed.seconds());
            out.println();
            ObjectNode probe = vehicles.get(vehicles.size() / 2);
            List<CatalogueStudy.Measurement> q = study.sevenQueries(tuned, probe);
            List<CatalogueStudy.Measurement> d = study.sevenQueries(everything, probe);
            out.printf(Locale.ROOT, "%-48s %8s %9s %9s %8s %8s %s%n", "query", "record", "tuned", "default",
                    "ratio", "ms", "partitions");
            for (int i = 0; i < q.size(); i++) {
                CatalogueStudy.Measurement m = q.get(i);
                Double record = RECORD_QUERY_RU[i];
                out.printf(Locale.ROOT, "%-48s %8s %9.2f %9.2f %8s %8.1f %s%n", m.name(),
                        record == null ? "-" : String.format(Locale.ROOT, "%.2f", record), m.requestCharge(),
                        d.get(i).requestCharge(),
                        record == null ? "-" : String.format(Locale.ROOT, "%.2f", m.requestCharge() / record),
                        m.millis(), m.crossPartition() ? "cross-partition, " + m.physicalPartitions()
                                + " physical partition(s)" : "one logical partition");
            }
        } finally {
            database.delete();
        }
    }

    private static void sleep(java.time.Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the containers stood idle", e);
        }
    }
}
