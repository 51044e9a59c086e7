package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ComputedProperty;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Computed properties through the SDK on a 5-partition container: queryable in filters, projections, ORDER BY and
 * GROUP BY; indexed only where the policy names them; never part of SELECT * or of the stored item; and the
 * definition rules (count, names, query shape) answered with 400.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComputedPropertiesSdkTest {
    static final String[] NAMES = {"Alice", "BOB", "carol", "Bob", "Dave"};
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("cp");
        db = client.getDatabase("cp");
        CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
        props.setComputedProperties(List.of(new ComputedProperty("cp_lower", "SELECT VALUE LOWER(c.name) FROM c"),
                new ComputedProperty("cp_len", "SELECT VALUE LENGTH(c.name) FROM c")));
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/*"), new IncludedPath("/cp_len/?")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/\"_etag\"/?")));
        props.setIndexingPolicy(policy);
        db.createContainer(props, ThroughputProperties.createManualThroughput(30_000));
        c = db.getContainer("c");
        for (int i = 0; i < NAMES.length; i++) {
            c.createItem(Json.object().put("id", "i" + i).put("pk", "p" + i).put("name", NAMES[i]));
        }
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    List<JsonNode> query(String sql) {
        List<JsonNode> out = new ArrayList<>();
        c.queryItems(sql, new CosmosQueryRequestOptions(), JsonNode.class).forEach(out::add);
        return out;
    }

    @Test
    void filtersAndProjectionsSeeComputedProperties() {
        assertThat(query("SELECT VALUE c.id FROM c WHERE c.cp_lower = 'bob'").stream().map(JsonNode::asText).sorted())
                .containsExactly("i1", "i3");
        assertThat(query("SELECT c.cp_lower, c.cp_len FROM c WHERE c.id = 'i2'").toString())
                .isEqualTo("[{\"cp_lower\":\"carol\",\"cp_len\":5}]");
    }

    @Test
    void selectStarAndPointReadsLeaveThemOut() {
        for (JsonNode item : query("SELECT * FROM c")) {
            assertThat(item.has("cp_lower")).isFalse();
            assertThat(item.has("cp_len")).isFalse();
        }
        assertThat(query("SELECT VALUE c FROM c WHERE c.id = 'i0'").get(0).has("cp_lower")).isFalse();
        JsonNode read = c.readItem("i0", new PartitionKey("p0"), JsonNode.class).getItem();
        assertThat(read.has("cp_lower")).isFalse();
    }

    @Test
    void orderByAnExplicitlyIndexedComputedProperty() {
        List<Integer> lengths = query("SELECT VALUE c.cp_len FROM c ORDER BY c.cp_len").stream()
                .map(JsonNode::asInt).toList();
        assertThat(lengths).containsExactly(3, 3, 4, 5, 5);
    }

    @Test
    void theWildcardPathDoesNotIndexComputedProperties() {
        assertThatThrownBy(() -> query("SELECT VALUE c.id FROM c ORDER BY c.cp_lower"))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
                .hasMessageContaining("excluded");
    }

    @Test
    void groupByAComputedProperty() {
        List<JsonNode> groups = query("SELECT c.cp_lower AS name, COUNT(1) AS n FROM c GROUP BY c.cp_lower");
        assertThat(groups.stream().map(JsonNode::toString)).hasSize(4).contains("{\"name\":\"bob\",\"n\":2}");
    }

    @Test
    void definitionsFollowTheServiceRules() {
        List<ComputedProperty> tooMany = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            tooMany.add(new ComputedProperty("cp_" + i, "SELECT VALUE c.a FROM c"));
        }
        assertRefused(tooMany);
        assertRefused(List.of(new ComputedProperty("id", "SELECT VALUE c.a FROM c")));
        assertRefused(List.of(new ComputedProperty("_ts", "SELECT VALUE c.a FROM c")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT VALUE c.a FROM c"),
                new ComputedProperty("x", "SELECT VALUE c.b FROM c")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT c.a FROM c")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT VALUE c.a FROM c WHERE c.b = 1")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT VALUE t FROM c JOIN t IN c.tags")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT VALUE COUNT(1) FROM c")));
        assertRefused(List.of(new ComputedProperty("x", "SELECT VALUE GetCurrentDateTime() FROM c")));
    }

    private void assertRefused(List<ComputedProperty> defs) {
        CosmosContainerProperties props = new CosmosContainerProperties("bad", "/pk");
        props.setComputedProperties(defs);
        assertThatThrownBy(() -> db.createContainer(props))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }
}
