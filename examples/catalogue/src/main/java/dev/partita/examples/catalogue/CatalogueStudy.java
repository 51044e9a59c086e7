package dev.partita.examples.catalogue;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosDiagnostics;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkItemResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The record's experiment on the {@code /make} container: seeding under a policy (total request units, throttling)
 * and the seven queries, each with its charge, its time and the physical partitions a cross-partition one spans.
 */
public final class CatalogueStudy {
    static final int PAGE = 100;

    /** One query's figures. */
    public record Measurement(String name, double requestCharge, double millis, boolean crossPartition,
            int physicalPartitions, int rows) {
    }

    /** A seed's figures: the documents written, their total charge, the 429s met on the way and the failures. */
    public record Seeding(long documents, double totalCharge, long throttledRetries, long failed, double seconds) {
    }

    private final CosmosDatabase database;
    private final Clock clock;

    public CatalogueStudy(CosmosDatabase database) {
        this(database, Clock.systemUTC());
    }

    /** @param clock what the study times seeds and queries with */
    public CatalogueStudy(CosmosDatabase database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    private Instant now() {
        return clock.instant();
    }

    private double millisSince(Instant start) {
        return Duration.between(start, now()).toNanos() / 1e6;
    }

    public CosmosContainer create(String name, IndexingPolicy policy, int throughput) {
        CosmosContainerProperties p = new CosmosContainerProperties(name, "/make");
        p.setIndexingPolicy(policy);
        database.createContainer(p, ThroughputProperties.createManualThroughput(throughput));
        return database.getContainer(name);
    }

    /** Bulk-creates the vehicles; the SDK retries 429s itself, and what still fails is counted. */
    public Seeding seed(CosmosContainer container, List<ObjectNode> vehicles) {
        List<CosmosItemOperation> ops = new ArrayList<>(vehicles.size());
        for (ObjectNode v : vehicles) {
            ops.add(CosmosBulkOperations.getUpsertItemOperation(v, new PartitionKey(v.get("make").asText())));
        }
        Instant start = now();
        double charge = 0;
        long retries = 0;
        long failed = 0;
        long written = 0;
        // the SDK keeps one bulk request per partition-key range in flight by default and builds the next only after
        // the answer, so client and server take turns; five (the SDK's most) let the client build while the server
        // commits: 9.6-10.2 s against 12.1-12.2 s for 100,000 vehicles on one range (BENCHMARKS.md, session 9)
        CosmosBulkExecutionOptions options = new CosmosBulkExecutionOptions().setMaxMicroBatchConcurrency(5);
        for (CosmosBulkOperationResponse<Object> r : container.<Object>executeBulkOperations(ops, options)) {
            CosmosBulkItemResponse response = r.getResponse();
            if (response != null) {
                charge += response.getRequestCharge();
                retries += retries(response.getCosmosDiagnostics());
            }
            if (response != null && response.isSuccessStatusCode()) {
                written++;
            } else {
                failed++;
            }
        }
        return new Seeding(written, charge, retries, failed, millisSince(start) / 1000);
    }

    private static long retries(CosmosDiagnostics d) {
        return d == null || d.getDiagnosticsContext() == null ? 0 : d.getDiagnosticsContext().getRetryCount();
    }

    /** The seven queries of the record, for a vehicle that exists in the container. */
    public List<Measurement> sevenQueries(CosmosContainer container, ObjectNode vehicle) {
        int partitions = container.getFeedRanges().size();
        String make = vehicle.get("make").asText();
        List<Measurement> out = new ArrayList<>();
        Instant t = now();
        double read = container.readItem(vehicle.get("id").asText(), new PartitionKey(make), JsonNode.class)
                .getRequestCharge();
        out.add(new Measurement("point read by id and make", read, millisSince(t), false, 1, 1));
        out.add(page(container, "read by id without the make", "SELECT * FROM c WHERE c.id = @id",
                List.of(new SqlParameter("@id", vehicle.get("id").asText())), true, partitions));
        out.add(page(container, "one make, ending soonest (page of 100)",
                "SELECT * FROM c WHERE c.make = @make ORDER BY c.ends_at", List.of(new SqlParameter("@make", make)),
                false, partitions));
        out.add(page(container, "one province (page of 100)", "SELECT * FROM c WHERE c.province = @p",
                List.of(new SqlParameter("@p", vehicle.get("province").asText())), true, partitions));
        out.add(page(container, "free text CONTAINS on model", "SELECT * FROM c WHERE CONTAINS(c.model, @text, true)",
                List.of(new SqlParameter("@text", vehicle.get("model").asText().substring(0, 3))), true, partitions));
        out.add(page(container, "listing, ending soonest (page of 100)", "SELECT * FROM c ORDER BY c.ends_at",
                List.of(), true, partitions));
        out.add(page(container, "price range and grade, by price (page of 100)",
                "SELECT * FROM c WHERE c.price >= @lo AND c.price <= @hi AND c.condition_grade >= @g "
                        + "ORDER BY c.price, c.condition_grade",
                List.of(new SqlParameter("@lo", 10_000), new SqlParameter("@hi", 20_000),
                        new SqlParameter("@g", 3.0)), true, partitions));
        return out;
    }

    /** The first page of a query: what one page of the site costs. */
    private Measurement page(CosmosContainer container, String name, String text, List<SqlParameter> params,
            boolean crossPartition, int partitions) {
        Instant t = now();
        for (FeedResponse<JsonNode> page : container.queryItems(new SqlQuerySpec(text, params),
                new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(PAGE)) {
            return new Measurement(name, page.getRequestCharge(), millisSince(t), crossPartition,
                    crossPartition ? partitions : 1, page.getResults().size());
        }
        return new Measurement(name, 0, millisSince(t), crossPartition, partitions, 0);
    }
}
