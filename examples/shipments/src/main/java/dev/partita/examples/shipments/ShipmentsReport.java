package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The record's before/after tables (seed 004) measured on Partita: the nightly load under {@code /tenantId} (and
 * with doubled throughput) against {@code /tenantId}+{@code /shipmentId}, the point read and the tenant-only list, the
 * dashboard from its materialized view, the client-side mitigations, and Contoso's logical partition growing into
 * the 20 GB limit.
 *
 * <p>Usage: {@code ShipmentsReport [endpoint] [key] [seconds per load] [seed shipments]}; defaults
 * {@code http://localhost:8081/}, the emulator key, 10 s and 700. The server must enforce capacity, and for the
 * 403/1014 row scale its storage limits:
 * {@code ./partita serve --http --in-memory --enforce-capacity --limits-scale 1/100000}.
 */
public final class ShipmentsReport {
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    /** Growth writes before giving up on meeting the logical-partition limit (about 1 KB each). */
    static final int GROWTH_WRITES = 400;

    /** The sizes of one report run. */
    public record Sizes(Duration load, int seedShipments, int batchShipments, int growthWrites) {
        public static Sizes full() {
            // 700 shipments put about 150 KB in Contoso's partition: 70% of the scaled 20 GB, the record's 14 GB
            return new Sizes(Duration.ofSeconds(10), 700, 40, GROWTH_WRITES);
        }
    }

    private ShipmentsReport() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos.implementation.ResourceThrottleRetryPolicy",
                "off");
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos.implementation.query.DocumentProducer",
                "off");
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos.implementation.RxGatewayStoreModel", "off");
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos.implementation.batch.BulkExecutor", "off");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        String endpoint = args.length > 0 ? args[0] : "http://localhost:8081/";
        String key = args.length > 1 ? args[1] : EMULATOR_KEY;
        Sizes full = Sizes.full();
        Sizes sizes = new Sizes(args.length > 2 ? Duration.ofSeconds(Long.parseLong(args[2])) : full.load(),
                args.length > 3 ? Integer.parseInt(args[3]) : full.seedShipments(), full.batchShipments(),
                full.growthWrites());
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
        CosmosClientBuilder b = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .endpointDiscoveryEnabled(false);
        try (CosmosClient client = b.buildClient();
                CosmosClient noRetries = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                        .endpointDiscoveryEnabled(false)
                        .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                        .buildClient()) {
            run(client, noRetries, System.out, sizes);
        }
    }

    /** Runs everything in a database of its own and removes it afterwards. */
    public static void run(CosmosClient client, CosmosClient noRetries, PrintStream out, Sizes sizes)
            throws Exception {
        String name = "shipments-report-" + UUID.randomUUID().toString().substring(0, 8);
        LoadModel model = LoadModel.scaled();
        HotTenantExperiment x = new HotTenantExperiment(client, noRetries, name, model, sizes.seedShipments());
        try {
            printModel(out, model, sizes);
            HotTenantExperiment.Variant before = x.tenantKeyed("shipments", LoadModel.REAL_THROUGHPUT);
            HotTenantExperiment.Variant doubled = x.tenantKeyed("shipments-doubled", 2 * LoadModel.REAL_THROUGHPUT);
            HotTenantExperiment.Variant fresh = x.hierarchicalFresh("shipments-hpk-fresh");
            HotTenantExperiment.Variant after = x.hierarchicalSpread("shipments-hpk");
            List<HotTenantExperiment.Variant> variants = List.of(before, doubled, fresh, after);
            out.printf(Locale.ROOT, "%nReads on the seeded containers, before the load (RU)%n"
                    + "%-28s %12s %12s %22s %22s%n", "container", "read by key",
                    "point query", "list Contoso (parts)", "list small (parts)");
            String small = model.tenants().get(1).id();
            for (HotTenantExperiment.Variant v : List.of(before, after)) {
                HotTenantExperiment.PointRead p = x.pointRead(v, LoadModel.CONTOSO);
                HotTenantExperiment.TenantList lc = x.tenantList(v, LoadModel.CONTOSO);
                HotTenantExperiment.TenantList ls = x.tenantList(v, small);
                out.printf(Locale.ROOT, "%-28s %12.2f %12.2f %14.2f (%2d, %4d rows) %9.2f (%2d)%n",
                        v.layout().label(), p.readCharge(), p.queryCharge(), lc.charge(), lc.partitionsSpanned(),
                        lc.rows(), ls.charge(), ls.partitionsSpanned());
            }

            HotTenantExperiment.settle();
            out.printf(Locale.ROOT, "%nNightly load, %d s each (one write costs %.2f RU); 429s counted by a client "
                    + "without retries%n", sizes.load().toSeconds(), x.writeCharge());
            out.printf(Locale.ROOT, "%-50s %5s %7s %8s %9s %14s %9s %10s%n", "container", "parts", "RU/s/pt",
                    "Contoso", "Contoso", "Contoso 429s", "others'", "account");
            out.printf(Locale.ROOT, "%-50s %5s %7s %8s %9s %14s %9s %10s%n", "", "", "", "on parts", "RU/s",
                    "/ writes sent", "429s", "RU/s used");
            for (HotTenantExperiment.Variant v : variants) {
                NightlyLoad.Result r = x.load(v, sizes.load());
                NightlyLoad.TenantResult c = r.tenant(LoadModel.CONTOSO);
                out.printf(Locale.ROOT, "%-50s %5d %7.0f %8d %4.0f/%-4.0f %7d / %-5d %9s %5.0f/%-5d%n", v.label(),
                        v.partitions(), v.throughput() / (double) v.partitions(), v.contosoPartitions(),
                        r.servedRus(LoadModel.CONTOSO), c.askedRus(), c.throttled(), c.sent(),
                        r.othersThrottled() + " (" + r.othersThrottledTenants() + "t)", r.servedRus(), v.throughput());
                if (r.failed() > 0) {
                    out.printf(Locale.ROOT, "  ... and %d writes failed otherwise than 429, by status/sub-status: %s%n",
                            r.failed(), r.failures());
                }
            }
            if (x.seedRefused() > 0) {
                out.printf(Locale.ROOT, "(%d seed shipments refused: a logical partition was full)%n", x.seedRefused());
            }
            out.println("(RU/s scaled by 1/100; 'others' 429s' counts the small tenants' refusals and, in brackets, "
                    + "how many tenants met one: those on Contoso's partition)");

            printDashboard(out, client.getDatabase(name));
            // the batches get a /tenantId container of their own, lightly seeded: on the first one Contoso's
            // logical partition is near its (scaled) 20 GB and the batches would end in 403/1014
            HotTenantExperiment light = new HotTenantExperiment(client, noRetries, name, model,
                    sizes.seedShipments() / 5);
            printMitigations(out, light, light.tenantKeyed("shipments-batch", LoadModel.REAL_THROUGHPUT), client,
                    sizes);
            printGrowth(out, x.database(), sizes);
            printRekey(out, name);
        } finally {
            client.getDatabase(name).delete();
        }
    }

    static void printModel(PrintStream out, LoadModel model, Sizes sizes) {
        List<LoadModel.Tenant> tenants = model.tenants();
        out.printf(Locale.ROOT, "Shipments (seed 004): the hot tenant, scaled %.0f:1%n", 1 / model.factor());
        out.printf(Locale.ROOT, "  container %,d RU/s (real %,d), nightly load %.0f RU/s (%.0f%% of it): Contoso %.0f "
                + "RU/s (45%%), %d other tenants at %d-%d RU/s; %,d seed shipments%n", model.throughput(),
                LoadModel.REAL_THROUGHPUT, model.load(), model.utilization() * 100, tenants.get(0).rus(),
                tenants.size() - 1, LoadModel.MIN_TENANT_RUS, LoadModel.MAX_TENANT_RUS, sizes.seedShipments());
    }

    static void printDashboard(PrintStream out, CosmosDatabase db) {
        CosmosContainer shipments = Layout.TENANT_SHIPMENT.create(db, "dashboard-shipments", 12_000);
        StatusView latest = new StatusView(shipments, Layout.TENANT_SHIPMENT, db, "shipmentStatus",
                StatusView.Feed.LATEST_VERSION);
        StatusView all = new StatusView(shipments, Layout.TENANT_SHIPMENT, db, "shipmentStatus-avad",
                StatusView.Feed.ALL_VERSIONS_AND_DELETES);
        for (int t = 0; t < 4; t++) {
            for (int n = 0; n < 40; n++) {
                ObjectNode s = Shipment.of("tenant-" + t, n);
                shipments.createItem(s, Layout.TENANT_SHIPMENT.key(s), new CosmosItemRequestOptions());
            }
        }
        latest.catchUp();
        all.catchUp();
        StatusView.Dashboard fanOut = StatusView.dashboardOnShipments(shipments);
        StatusView.Dashboard fromView = latest.dashboard();
        // two delayed shipments are deleted (the TTL purge is the same kind of change: a delete)
        for (int n : new int[] {2, 6}) {
            ObjectNode s = Shipment.of("tenant-0", n);
            shipments.deleteItem(s, new CosmosItemRequestOptions());
        }
        latest.catchUp();
        all.catchUp();
        int truth = StatusView.dashboardOnShipments(shipments).rows().size();
        out.printf(Locale.ROOT, "%nDashboard: delayed shipments, newest first (%d delayed of 160)%n", fanOut.rows()
                .size());
        out.printf(Locale.ROOT, "  on shipments (fan-out over %d partitions): %6.2f RU%n",
                shipments.getFeedRanges().size(), fanOut.charge());
        out.printf(Locale.ROOT, "  on shipmentStatus, partition 'Delayed':      %6.2f RU%n", fromView.charge());
        out.printf(Locale.ROOT, "  after deleting 2 delayed shipments: source %d rows; view from latest-version feed "
                + "%d (phantoms: %d); view from all-versions-and-deletes %d%n", truth, latest.dashboard().rows().size(),
                latest.dashboard().rows().size() - truth, all.dashboard().rows().size());
    }

    static void printMitigations(PrintStream out, HotTenantExperiment x, HotTenantExperiment.Variant before,
            CosmosClient client, Sizes sizes) throws Exception {
        String neighbour = Mitigations.neighbourOf(before, LoadModel.CONTOSO);
        double share = before.throughput() / (double) before.partitions();
        Mitigations m = new Mitigations(before.container(), before.noRetries(), neighbour, 20, x.writeCharge(),
                share);
        out.printf(Locale.ROOT, "%nContoso's batch of %d shipments on /tenantId (its partition: %.0f RU/s), while "
                + "%s on the same partition writes 20 RU/s (until 1 s after the batch)%n", sizes.batchShipments(),
                share,
                neighbour);
        out.printf(Locale.ROOT, "%-42s %8s %10s %8s %16s%n", "batch", "written", "429s/retry", "seconds",
                "neighbour 429s");
        for (Mitigations.Mode mode : Mitigations.Mode.values()) {
            Mitigations.Outcome o = m.run(mode, sizes.batchShipments());
            out.printf(Locale.ROOT, "%-42s %8d %10d %8.1f %9d / %-5d%n", mode.label(), o.written(),
                    o.batchThrottled(), o.seconds(), o.neighbourThrottled(), o.neighbourSent());
        }
    }

    static void printGrowth(PrintStream out, CosmosDatabase db, Sizes sizes) {
        out.printf(Locale.ROOT, "%nContoso's logical partition growing (about 1 KB a shipment, up to %d)%n",
                sizes.growthWrites());
        for (Layout layout : Layout.values()) {
            String name = "growth-" + layout.name().toLowerCase(Locale.ROOT);
            db.createContainer(new CosmosContainerProperties(name, layout.definition()),
                    ThroughputProperties.createManualThroughput(10_000));
            PartitionGrowth.Outcome o = PartitionGrowth.grow(db.getContainer(name), layout, LoadModel.CONTOSO, 0,
                    sizes.growthWrites());
            out.printf(Locale.ROOT, "  %-22s %5d writes, %,9d bytes: %s%n", layout.label(), o.writes(), o.bytes(),
                    o.hitLimit() ? "403/1014 (logical partition full)" : "no limit met");
        }
        out.println("  (the 403 needs a server with scaled storage limits: --limits-scale 1/100000 makes 20 GB about"
                + " 210 KB)");
    }

    static void printRekey(PrintStream out, String database) {
        out.printf(Locale.ROOT, "%nRe-keying (copy, change-feed catch-up, verification, cutover) with Partita's "
                + "migrator, while writes continue:%n");
        out.printf(Locale.ROOT, "  ./partita migrate --endpoint <endpoint> --database %s --source-container shipments"
                + " --target-container shipments-v2 --target-key /tenantId,/shipmentId --target-throughput 6000 "
                + "--verify-by /status --max-ru-per-second 500%n", database);
        out.println("  then, with writes to the source stopped: the same command with --cutover; raise the target "
                + "to 120,000 RU/s once loaded so its splits fall inside Contoso's shipments");
    }
}
