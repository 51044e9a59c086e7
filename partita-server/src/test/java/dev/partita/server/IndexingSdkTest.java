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
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Index use through the SDK: ORDER BY on several keys needs a matching composite index and ORDER BY on an excluded
 * path is refused, with the service's 400s, both for cross-partition queries (the query plan and the rewritten
 * per-range query) and single-partition ones; filters on indexed and excluded paths return the same rows; a policy
 * replace takes effect on the data already stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IndexingSdkTest {
    static final int ITEMS = 60;
    static final String NO_COMPOSITE = "The order by query does not have a corresponding composite index";
    static final String EXCLUDED = "The index path corresponding to the specified order-by item is excluded";
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("ix");
        db = client.getDatabase("ix");
        CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
        props.setIndexingPolicy(policy(List.of(composite(false, true))));
        db.createContainer(props, ThroughputProperties.createManualThroughput(30_000));
        c = db.getContainer("c");
        for (int i = 0; i < ITEMS; i++) {
            c.createItem(Json.object().put("id", "i" + i).put("pk", "p" + (i % 12)).put("a", i % 5).put("b", i)
                    .put("secret", i % 7));
        }
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    static IndexingPolicy policy(List<List<CompositePath>> composites) {
        IndexingPolicy p = new IndexingPolicy();
        p.setIncludedPaths(List.of(new IncludedPath("/*")));
        p.setExcludedPaths(List.of(new ExcludedPath("/secret/?")));
        p.setCompositeIndexes(composites);
        return p;
    }

    static List<CompositePath> composite(boolean aDescending, boolean bDescending) {
        CompositePath a = new CompositePath().setPath("/a")
                .setOrder(aDescending ? CompositePathSortOrder.DESCENDING : CompositePathSortOrder.ASCENDING);
        CompositePath b = new CompositePath().setPath("/b")
                .setOrder(bDescending ? CompositePathSortOrder.DESCENDING : CompositePathSortOrder.ASCENDING);
        return List.of(a, b);
    }

    static List<JsonNode> all(CosmosContainer c, SqlQuerySpec query, CosmosQueryRequestOptions options) {
        List<JsonNode> rows = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(query, options, JsonNode.class).iterableByPage(7)) {
            rows.addAll(page.getResults());
        }
        return rows;
    }

    static List<JsonNode> all(CosmosContainer c, String query) {
        return all(c, new SqlQuerySpec(query), new CosmosQueryRequestOptions());
    }

    static void assertBadRequest(Runnable r, String message) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(CosmosException.class, e -> {
            assertThat(e.getStatusCode()).isEqualTo(400);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void orderByOnSeveralKeysIsServedByAMatchingCompositeIndex() {
        Comparator<JsonNode> ab = Comparator.<JsonNode>comparingInt(r -> r.get("a").asInt())
                .thenComparing(r -> r.get("b").asInt(), Comparator.reverseOrder());
        List<JsonNode> rows = all(c, "SELECT c.a, c.b FROM c ORDER BY c.a, c.b DESC");
        assertThat(rows).hasSize(ITEMS).isSortedAccordingTo(ab);
        // all directions inverted is the same index read backwards
        assertThat(all(c, "SELECT c.a, c.b FROM c ORDER BY c.a DESC, c.b ASC")).hasSize(ITEMS)
                .isSortedAccordingTo(ab.reversed());
    }

    @Test
    void orderByWithoutAMatchingCompositeIndexIsTheServices400() {
        assertBadRequest(() -> all(c, "SELECT * FROM c ORDER BY c.a, c.b"), NO_COMPOSITE);
        assertBadRequest(() -> all(c, "SELECT * FROM c ORDER BY c.b DESC, c.a"), NO_COMPOSITE);
        CosmosQueryRequestOptions onePartition = new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("p1"));
        assertBadRequest(() -> all(c, new SqlQuerySpec("SELECT * FROM c ORDER BY c.a, c.b"), onePartition),
                NO_COMPOSITE);
    }

    @Test
    void orderByOnAnExcludedPathIsTheServices400() {
        assertBadRequest(() -> all(c, "SELECT * FROM c ORDER BY c.secret"), EXCLUDED);
        assertBadRequest(() -> all(c, new SqlQuerySpec("SELECT * FROM c ORDER BY c.secret"),
                new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p1"))), EXCLUDED);
    }

    @Test
    void filtersOnIndexedAndExcludedPathsReturnTheSameRows() {
        List<JsonNode> indexed = all(c, new SqlQuerySpec("SELECT VALUE c.id FROM c WHERE c.a = @a AND c.b >= 10",
                List.of(new SqlParameter("@a", 3))), new CosmosQueryRequestOptions());
        assertThat(indexed).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("i13", "i18", "i23", "i28", "i33", "i38", "i43", "i48", "i53", "i58");
        List<JsonNode> excluded = all(c, "SELECT VALUE c.id FROM c WHERE c.secret = 3");
        assertThat(excluded).extracting(JsonNode::asText).hasSize(9).allSatisfy(id ->
                assertThat(Integer.parseInt(id.substring(1)) % 7).isEqualTo(3));
        assertThat(all(c, "SELECT VALUE c.id FROM c WHERE c.id IN ('i1', 'i2', 'nope')")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("i1", "i2");
    }

    @Test
    void aReplacedPolicyAppliesToStoredItems() {
        CosmosContainerProperties props = new CosmosContainerProperties("r", "/pk");
        props.setIndexingPolicy(policy(List.of()));
        db.createContainer(props);
        CosmosContainer r = db.getContainer("r");
        for (int i = 0; i < 20; i++) {
            r.createItem(Json.object().put("id", "i" + i).put("pk", "p" + (i % 3)).put("a", i % 4).put("b", i));
        }
        assertBadRequest(() -> all(r, "SELECT c.b FROM c ORDER BY c.a, c.b"), NO_COMPOSITE);
        CosmosContainerProperties replaced = r.read().getProperties();
        replaced.setIndexingPolicy(policy(List.of(composite(false, false))));
        r.replace(replaced);
        assertThat(all(r, "SELECT c.a, c.b FROM c ORDER BY c.a, c.b")).hasSize(20)
                .isSortedAccordingTo(Comparator.<JsonNode>comparingInt(x -> x.get("a").asInt())
                        .thenComparingInt(x -> x.get("b").asInt()));
        assertThat(all(r, "SELECT VALUE c.id FROM c WHERE c.a = 1")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("i1", "i5", "i9", "i13", "i17");
    }

    @Test
    void anInvalidPolicyIsA400OnCreate() {
        CosmosContainerProperties props = new CosmosContainerProperties("bad", "/pk");
        IndexingPolicy p = new IndexingPolicy();
        p.setIncludedPaths(List.of(new IncludedPath("/a/?")));
        p.setExcludedPaths(List.of(new ExcludedPath("/a/?"), new ExcludedPath("/*")));
        props.setIndexingPolicy(p);
        assertThatThrownBy(() -> db.createContainer(props)).isInstanceOfSatisfying(CosmosException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }
}
