package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.ThrottlingRetryOptions;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The record's cost comparison (20 endpoints as 20 containers at 400 RU/s manual against one autoscale container
 * with a maximum of 4,000 RU/s) and the hot-endpoint ceiling measured on a server that enforces capacity.
 */
public final class TrackingReport {
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    static final int ENDPOINTS = 20;
    static final int LEGACY_RUS = 400;

    private TrackingReport() {
    }

    /** Usage: {@code TrackingReport [endpoint] [key]}; the hot-endpoint part needs a server enforcing capacity. */
    public static void main(String[] args) {
        print(System.out);
        String endpoint = args.length > 0 ? args[0] : "http://localhost:8081/";
        String key = args.length > 1 ? args[1] : EMULATOR_KEY;
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
        try (CosmosClient client = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient()) {
            printHotEndpoint(System.out, HotEndpoint.measure(client, 400, Duration.ofSeconds(5)));
        }
    }

    public static void printHotEndpoint(PrintStream out, HotEndpoint.Result r) {
        out.println();
        out.printf(Locale.ROOT, "Hot endpoint, 5 s, container at 400 RU/s over %d physical partition(s):%n",
                r.partitions());
        out.printf(Locale.ROOT, "  hot endpoint: %.0f RU/s achieved against its partition's share of %.0f RU/s; "
                + "%,d writes, %,d throttled (429)%n", r.hotRuPerSecond(), r.shareRuPerSecond(), r.hotWrites(),
                r.hotThrottled());
        out.printf(Locale.ROOT, "  other endpoints: %d of %d throttled at all (those sharing the hot partition), "
                + "%d wrote%n", r.othersThrottled(), r.others(), r.othersWritten());
        if (r.hotThrottled() == 0) {
            out.println("  (no 429s: start Partita with --enforce-capacity to see the ceiling)");
        } else if (r.partitions() == 1) {
            out.println("  (one partition: everyone shares it; --limit manualRusPerInitialPartition=100 gives 4)");
        }
    }

    public static void print(PrintStream out) {
        out.println("Tracking store (seed 000): throughput cost per month, US prices, 730 h");
        out.printf(Locale.ROOT, "%-46s %12s%n", "layout", "USD/month");
        out.printf(Locale.ROOT, "%-46s %12.2f%n", ENDPOINTS + " containers x " + LEGACY_RUS + " RU/s manual",
                CostEstimate.manual(ENDPOINTS, LEGACY_RUS));
        out.printf(Locale.ROOT, "%-46s %12.2f%n", "1 autoscale container, max " + TrackingStore.AUTOSCALE_MAX_RUS
                + ", idle (floor)", CostEstimate.autoscaleAtFloor(TrackingStore.AUTOSCALE_MAX_RUS));
        out.printf(Locale.ROOT, "%-46s %12.2f%n", "1 autoscale container, max " + TrackingStore.AUTOSCALE_MAX_RUS
                + ", always at max", CostEstimate.autoscaleAtMax(TrackingStore.AUTOSCALE_MAX_RUS));
        out.println("(the record: about $467 against about $35 to $350)");
    }
}
