package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scaled throttling experiments the report and the tests share. Each container is created at the record's real
 * throughput, so it gets the real physical partitions (120,000 RU/s manual: 20), loaded with the tenants' shipments,
 * and then lowered to the simulation's throughput (1/100: 1,200 RU/s, 60 RU/s per partition). The nightly load then
 * runs through a client that does not retry 429s, and every refusal is counted.
 */
public final class HotTenantExperiment {
    /** A manual throughput that still gives one physical partition (ceil(RU/s / 6,000) = 1). */
    static final int ONE_PARTITION_RUS = 6_000;
    /** Longer than one budget window. */
    static final Duration SETTLE = Duration.ofMillis(1_100);
    static final String LIST_QUERY = "SELECT c.shipmentId, c.status, c.createdAt FROM c WHERE c.tenantId = @t";
    static final String POINT_QUERY = "SELECT * FROM c WHERE c.tenantId = @t AND c.shipmentId = @s";

    /** A container of the experiment and how its partitions fell. */
    public record Variant(String label, Layout layout, CosmosContainer container, CosmosContainer noRetries,
            int throughput, int partitions, int contosoPartitions, Map<String, Integer> partitionOfTenants) {
    }

    /** The point read of the record, as a read by id and key and as the application's query. */
    public record PointRead(double readCharge, double queryCharge, int queryRows) {
    }

    /** A tenant-only list: its total charge, rows and the physical partitions the tenant's shipments are on. */
    public record TenantList(double charge, int rows, int partitionsSpanned) {
    }

    private final CosmosDatabase database;
    private final CosmosDatabase noRetriesDatabase;
    private final LoadModel model;
    private final int seedItems;
    private double writeCharge;
    private long seedRefused;

    /**
     * @param client    a client with the SDK's default 429 retries (set-up and seeding)
     * @param noRetries a client with 429 retries off (the measured load)
     * @param seedItems shipments stored before the load, shared among tenants in proportion to their traffic
     */
    public HotTenantExperiment(CosmosClient client, CosmosClient noRetries, String databaseName, LoadModel model,
            int seedItems) {
        client.createDatabaseIfNotExists(databaseName);
        this.database = client.getDatabase(databaseName);
        this.noRetriesDatabase = noRetries.getDatabase(databaseName);
        this.model = model;
        this.seedItems = seedItems;
    }

    public LoadModel model() {
        return model;
    }

    /** Today's layout at {@code realRus} of real throughput (120,000 or the doubled 240,000). */
    public Variant tenantKeyed(String name, int realRus) {
        CosmosContainer c = Layout.TENANT.create(database, name, LoadModel.REAL_THROUGHPUT);
        seed(c, Layout.TENANT);
        if (realRus != LoadModel.REAL_THROUGHPUT) {
            // raising past partitions x 10,000 RU/s splits partitions, as the service does
            Layout.setThroughput(c, realRus);
        }
        return lower(name, Layout.TENANT, c, model.scaledRus(realRus), "/tenantId at " + realRus + " RU/s");
    }

    /**
     * The hierarchical key on a container created at the real throughput: its partitions divide the hash space of
     * the first level evenly, so all of Contoso's shipments still sit in one of them (items sharing a first-level
     * key stay together until their data forces a split).
     */
    public Variant hierarchicalFresh(String name) {
        CosmosContainer c = Layout.TENANT_SHIPMENT.create(database, name, LoadModel.REAL_THROUGHPUT);
        seed(c, Layout.TENANT_SHIPMENT);
        return lower(name, Layout.TENANT_SHIPMENT, c, model.throughput(),
                "/tenantId+/shipmentId created at " + LoadModel.REAL_THROUGHPUT);
    }

    /**
     * The hierarchical key loaded on one partition and then raised to the real throughput: each split falls at its
     * partition's median item, so Contoso's shipments end up on several partitions.
     */
    public Variant hierarchicalSpread(String name) {
        CosmosContainer c = Layout.TENANT_SHIPMENT.create(database, name, ONE_PARTITION_RUS);
        seed(c, Layout.TENANT_SHIPMENT);
        Layout.setThroughput(c, LoadModel.REAL_THROUGHPUT);
        return lower(name, Layout.TENANT_SHIPMENT, c, model.throughput(),
                "/tenantId+/shipmentId loaded, then raised to " + LoadModel.REAL_THROUGHPUT);
    }

    private Variant lower(String name, Layout layout, CosmosContainer c, int scaled, String label) {
        // A throughput change moves a partition's one-second budget by the difference, and Partita applies it to the
        // last window the partition saw: lowered right after the seeding's window, a partition starts the load in
        // debt for half a minute. So let the seeding's windows close, touch every partition in a fresh window (the
        // probes below do), and only then lower.
        settle();
        int partitions = c.getFeedRanges().size();
        int contoso = partitionsSpanned(c, LoadModel.CONTOSO);
        Map<String, Integer> where = layout == Layout.TENANT ? partitionOfTenants(c) : Map.of();
        Layout.setThroughput(c, scaled);
        return new Variant(label, layout, c, noRetriesDatabase.getContainer(name), scaled, partitions, contoso, where);
    }

    /** Waits until the current one-second budget windows are over (seeding traffic is done by then). */
    static void settle() {
        try {
            Thread.sleep(SETTLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stores the seed shipments: each tenant's share of {@code seedItems} follows its share of the traffic. */
    void seed(CosmosContainer c, Layout layout) {
        List<CosmosItemOperation> ops = new ArrayList<>();
        for (LoadModel.Tenant t : model.tenants()) {
            long count = Math.max(1, Math.round(seedItems * t.rus() / model.load()));
            for (long n = 0; n < count; n++) {
                ObjectNode s = Shipment.of(t.id(), n);
                ops.add(CosmosBulkOperations.getUpsertItemOperation(s, layout.key(s)));
            }
        }
        while (!ops.isEmpty()) {
            List<CosmosItemOperation> throttled = new ArrayList<>();
            for (CosmosBulkOperationResponse<Object> r : c.<Object>executeBulkOperations(ops)) {
                int status = r.getResponse() == null ? 429 : r.getResponse().getStatusCode();
                if (status == 429) {
                    throttled.add(r.getOperation());
                } else if (status == 403) {
                    seedRefused++; // a logical partition full (403/1014) on a server with scaled limits
                } else if (status >= 300) {
                    throw new IllegalStateException("Seeding failed with status " + status);
                }
            }
            ops = throttled;
        }
        if (writeCharge == 0) {
            ObjectNode probe = Shipment.of("probe", 0);
            writeCharge = c.upsertItem(probe, layout.key(probe), null).getRequestCharge();
            c.deleteItem(probe, null);
        }
    }

    /** Seed shipments refused because their logical partition was full (403/1014). */
    public long seedRefused() {
        return seedRefused;
    }

    /** The price of one shipment write, measured on the first seeded container. */
    public double writeCharge() {
        return writeCharge;
    }

    /** The nightly load on one variant. */
    public NightlyLoad.Result load(Variant v, Duration duration) {
        return NightlyLoad.run(v.noRetries(), v.layout(), model.tenants(), writeCharge, duration, v.throughput());
    }

    /** Shipment 1 of a tenant read by id and full key, and through the application's query with the full key. */
    public PointRead pointRead(Variant v, String tenantId) {
        String shipmentId = Shipment.of(tenantId, 1).get("shipmentId").asText();
        double read = v.container().readItem(shipmentId, v.layout().key(tenantId, shipmentId), JsonNode.class)
                .getRequestCharge();
        double charge = 0;
        int rows = 0;
        SqlQuerySpec q = new SqlQuerySpec(POINT_QUERY, new SqlParameter("@t", tenantId),
                new SqlParameter("@s", shipmentId));
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions()
                .setPartitionKey(v.layout().key(tenantId, shipmentId));
        for (FeedResponse<JsonNode> page : v.container().queryItems(q, o, JsonNode.class).iterableByPage()) {
            charge += page.getRequestCharge();
            rows += page.getResults().size();
        }
        return new PointRead(read, charge, rows);
    }

    /** Every shipment of a tenant: one partition under {@code /tenantId}, a prefix query under the hierarchical key. */
    public TenantList tenantList(Variant v, String tenantId) {
        double charge = 0;
        int rows = 0;
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(v.layout().tenantKey(tenantId));
        for (FeedResponse<JsonNode> page : v.container().queryItems(new SqlQuerySpec(LIST_QUERY,
                new SqlParameter("@t", tenantId)), o, JsonNode.class).iterableByPage()) {
            charge += page.getRequestCharge();
            rows += page.getResults().size();
        }
        return new TenantList(charge, rows, partitionsSpanned(v.container(), tenantId));
    }

    /** The physical partitions holding at least one of a tenant's shipments, asked range by range. */
    public static int partitionsSpanned(CosmosContainer c, String tenantId) {
        int spanned = 0;
        for (FeedRange range : c.getFeedRanges()) {
            CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setFeedRange(range);
            for (Long count : c.queryItems(new SqlQuerySpec("SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t",
                    new SqlParameter("@t", tenantId)), o, Long.class)) {
                spanned += count > 0 ? 1 : 0;
            }
        }
        return spanned;
    }

    /** Which physical partition (index into {@code getFeedRanges()}) each tenant's shipments are on. */
    public static Map<String, Integer> partitionOfTenants(CosmosContainer c) {
        Map<String, Integer> out = new LinkedHashMap<>();
        List<FeedRange> ranges = c.getFeedRanges();
        for (int i = 0; i < ranges.size(); i++) {
            CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setFeedRange(ranges.get(i));
            for (String t : c.queryItems("SELECT DISTINCT VALUE c.tenantId FROM c", o, String.class)) {
                out.put(t, i);
            }
        }
        return out;
    }

    public CosmosDatabase database() {
        return database;
    }
}
