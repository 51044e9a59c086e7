package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.CosmosItemIdentity;
import com.azure.cosmos.implementation.QueryMetrics;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Queries through the SDK: single range (the whole query runs on the server), and several ranges. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuerySdkTest {
    static final int ITEMS = 60;
    TestServers t;
    CosmosClient client;
    CosmosContainer one;
    CosmosContainer five;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("q");
        CosmosDatabase db = client.getDatabase("q");
        db.createContainer(withCatNComposite(new CosmosContainerProperties("one", "/pk")));
        db.createContainer(withCatNComposite(new CosmosContainerProperties("five", "/pk")),
                ThroughputProperties.createManualThroughput(30_000));
        one = db.getContainer("one");
        five = db.getContainer("five");
        for (int i = 0; i < ITEMS; i++) {
            ObjectNode doc = Json.object().put("id", "i" + i).put("pk", "p" + (i % 12)).put("n", i)
                    .put("cat", String.valueOf((char) ('a' + i % 3)));
            one.createItem(doc);
            five.createItem(doc);
        }
    }

    /**
     * The SDK's query metrics from every range: the documents each read, and a compile time above zero (the Java
     * SDK's own query tests check it with {@code hasValidQueryMetrics}).
     */
    @Test
    void queryMetricsCountTheDocumentsAndTimeTheCompile() {
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setQueryMetricsEnabled(true);
        long retrieved = 0;
        for (FeedResponse<JsonNode> page : five.queryItems("SELECT * FROM c WHERE c.n >= 0", options, JsonNode.class)
                .iterableByPage(100)) {
            assertThat(ModelBridgeInternal.queryMetricsMap(page)).isNotEmpty();
            for (QueryMetrics m : ModelBridgeInternal.queryMetricsMap(page).values()) {
                retrieved += m.getRetrievedDocumentCount();
                assertThat(m.getQueryPreparationTimes().getQueryCompilationTime()).isPositive();
                assertThat(m.getTotalQueryExecutionTime()).isPositive();
            }
        }
        assertThat(retrieved).isEqualTo(ITEMS);
    }

    @Test
    void anUnreadableContinuationTokenIsTheServices400() {
        // the SDK reads its own wrapper (token and range) and sends the server's token inside it as it is
        String token = "{\"token\":\"not-a-token\",\"range\":{\"min\":\"\",\"max\":\"FF\"}}";
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p1"));
        assertThatThrownBy(() -> one.queryItems("SELECT * FROM c", options, JsonNode.class)
                .iterableByPage(token, 2).iterator().next())
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getSubStatusCode()).isEqualTo(0);
                    assertThat(e.getMessage()).contains("The continuation token specified in the request is"
                            + " malformed. Re-run the query without it and iterate.");
                });
    }

    @Test
    void aCompileErrorEmbedsTheServicesErrorListWithItsLocation() {
        for (CosmosQueryRequestOptions options : List.of(new CosmosQueryRequestOptions(),
                new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p1")))) {
            assertThatThrownBy(() -> five.queryItems("SELECT * frm c", options, JsonNode.class).iterator().next())
                    .isInstanceOfSatisfying(CosmosException.class, e -> {
                        assertThat(e.getStatusCode()).isEqualTo(400);
                        String message = e.getShortMessage();
                        assertThat(message).startsWith("Message: {").contains("\r\nActivityId: ");
                        JsonNode errors = Json.parse(message.substring("Message: ".length(),
                                message.indexOf("\r\nActivityId: ")), "error list").get("errors");
                        assertThat(errors).hasSize(1);
                        assertThat(errors.get(0).toString()).isEqualTo("{\"severity\":\"Error\",\"location\":"
                                + "{\"start\":9,\"end\":12},\"code\":\"SC1001\","
                                + "\"message\":\"Syntax error, incorrect syntax near 'frm'.\"}");
                    });
        }
    }

    /** ORDER BY c.cat, c.n DESC needs a composite index, as in the service. */
    static CosmosContainerProperties withCatNComposite(CosmosContainerProperties props) {
        IndexingPolicy policy = new IndexingPolicy();
        policy.setCompositeIndexes(List.of(List.of(new CompositePath().setPath("/cat"),
                new CompositePath().setPath("/n").setOrder(CompositePathSortOrder.DESCENDING))));
        return props.setIndexingPolicy(policy);
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    static List<JsonNode> all(CosmosContainer c, String query, CosmosQueryRequestOptions options, int pageSize) {
        List<JsonNode> rows = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(query, options, JsonNode.class).iterableByPage(pageSize)) {
            assertThat(page.getResults().size()).isLessThanOrEqualTo(pageSize);
            rows.addAll(page.getResults());
        }
        return rows;
    }

    @Test
    void orderByTopAggregatesAndGroupByOnOneRange() {
        List<JsonNode> ordered = all(one, "SELECT c.id, c.n FROM c ORDER BY c.n DESC", new CosmosQueryRequestOptions(), 7);
        assertThat(ordered).hasSize(ITEMS);
        assertThat(ordered).extracting(r -> r.get("n").asInt()).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(all(one, "SELECT TOP 5 * FROM c ORDER BY c.n", new CosmosQueryRequestOptions(), 2))
                .extracting(r -> r.get("id").asText()).containsExactly("i0", "i1", "i2", "i3", "i4");
        assertThat(all(one, "SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), 100))
                .extracting(JsonNode::asInt).containsExactly(ITEMS);
        Map<String, Integer> byCat = all(one, "SELECT c.cat, COUNT(1) AS n FROM c GROUP BY c.cat",
                new CosmosQueryRequestOptions(), 100).stream()
                .collect(Collectors.toMap(r -> r.get("cat").asText(), r -> r.get("n").asInt()));
        assertThat(byCat).containsEntry("a", 20).containsEntry("b", 20).containsEntry("c", 20);
    }

    @Test
    void parametersAndPartitionKeyScopedQueries() {
        SqlQuerySpec spec = new SqlQuerySpec("SELECT VALUE c.id FROM c WHERE c.n >= @min AND c.cat = @cat",
                List.of(new SqlParameter("@min", 30), new SqlParameter("@cat", "a")));
        List<String> ids = new ArrayList<>();
        five.queryItems(spec, new CosmosQueryRequestOptions(), String.class).forEach(ids::add);
        assertThat(ids).containsExactlyInAnyOrder("i30", "i33", "i36", "i39", "i42", "i45", "i48", "i51", "i54", "i57");
        // a partition key option pins the query to one logical partition: ORDER BY is exact even on 5 ranges
        List<JsonNode> p3 = all(five, "SELECT c.n FROM c ORDER BY c.n DESC",
                new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p3")), 2);
        assertThat(p3).extracting(r -> r.get("n").asInt()).containsExactly(51, 39, 27, 15, 3);
        List<String> all = new ArrayList<>();
        five.readAllItems(new PartitionKey("p5"), JsonNode.class).forEach(r -> all.add(r.get("id").asText()));
        assertThat(all).containsExactlyInAnyOrder("i5", "i17", "i29", "i41", "i53");
    }

    @Test
    void crossPartitionQueriesSeeEveryRangeOnce() {
        List<JsonNode> rows = all(five, "SELECT * FROM c WHERE c.n % 2 = 0", new CosmosQueryRequestOptions(), 3);
        assertThat(rows).extracting(r -> r.get("n").asInt()).doesNotHaveDuplicates().hasSize(ITEMS / 2);
        List<JsonNode> joined = all(five, "SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions(), 1000);
        assertThat(joined).hasSize(ITEMS);
    }

    @Test
    void everyQueryShapeGivesTheSameRowsOnFiveRangesAsOnOne() {
        List<String> queries = List.of(
                "SELECT c.id, c.n FROM c ORDER BY c.n DESC",
                "SELECT VALUE c.id FROM c ORDER BY c.cat, c.n DESC",
                "SELECT TOP 7 c.id FROM c ORDER BY c.n",
                "SELECT c.id FROM c ORDER BY c.n OFFSET 10 LIMIT 15",
                "SELECT VALUE COUNT(1) FROM c",
                "SELECT VALUE AVG(c.n) FROM c WHERE c.cat = 'b'",
                "SELECT MIN(c.n) AS lo, MAX(c.n) AS hi, SUM(c.n) AS total FROM c",
                "SELECT c.cat, COUNT(1) AS n, SUM(c.n) AS s FROM c GROUP BY c.cat",
                "SELECT DISTINCT VALUE c.cat FROM c",
                "SELECT DISTINCT c.pk FROM c ORDER BY c.pk",
                "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.pk FROM c)",
                "SELECT * FROM c WHERE c.pk = 'p4' ORDER BY c.n DESC",
                "SELECT VALUE c.n FROM c WHERE c.pk IN ('p1', 'p7') ORDER BY c.n");
        for (String q : queries) {
            for (int pageSize : new int[] {3, 100}) {
                List<JsonNode> expected = all(one, q, new CosmosQueryRequestOptions(), 1000);
                List<JsonNode> got = all(five, q, new CosmosQueryRequestOptions(), pageSize);
                if (q.contains("ORDER BY")) {
                    assertThat(strip(got)).as(q + " / page " + pageSize).containsExactlyElementsOf(strip(expected));
                } else {
                    assertThat(strip(got)).as(q + " / page " + pageSize)
                            .containsExactlyInAnyOrderElementsOf(strip(expected));
                }
            }
        }
    }

    /** Rows without the per-container system properties (the two containers hold equal documents). */
    static List<JsonNode> strip(List<JsonNode> rows) {
        return rows.stream().map(ConformanceSdkTest::withoutSystemProperties).toList();
    }

    @Test
    void readManyWithSeveralItemsPerRangeUsesQueries() {
        List<CosmosItemIdentity> wanted = new ArrayList<>();
        for (int i = 0; i < ITEMS; i += 4) {
            wanted.add(new CosmosItemIdentity(new PartitionKey("p" + (i % 12)), "i" + i));
        }
        wanted.add(new CosmosItemIdentity(new PartitionKey("p0"), "missing"));
        for (CosmosContainer c : List.of(one, five)) {
            List<String> got = c.readMany(wanted, JsonNode.class).getResults().stream()
                    .map(r -> r.get("id").asText()).toList();
            assertThat(got).hasSize(wanted.size() - 1).doesNotContain("missing");
        }
    }
}
