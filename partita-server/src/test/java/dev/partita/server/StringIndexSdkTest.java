package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * String functions through the SDK on a container of five physical partitions: a filter on an indexed path (answered
 * from its index terms) returns the rows the same filter on an excluded copy of the value (a scan) returns, across
 * pages of 7 and with ORDER BY, TOP and OFFSET/LIMIT, and a selective function costs less.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StringIndexSdkTest {
    static final int ITEMS = 300;
    static final String[] MODELS = {"Corolla", "COROLLA", "Camry", "F-150", "straße", "STRASSE", "İzmir", "izmir",
        "é", "É", "😀 Civic", "", "x".repeat(99) + "Corolla", "Corolla " + "y".repeat(120), "50% off", "a_b"};
    TestServers t;
    CosmosClient client;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("si");
        CosmosDatabase db = client.getDatabase("si");
        CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
        IndexingPolicy p = new IndexingPolicy();
        p.setIncludedPaths(List.of(new IncludedPath("/*")));
        p.setExcludedPaths(List.of(new ExcludedPath("/copy/?")));
        props.setIndexingPolicy(p);
        db.createContainer(props, ThroughputProperties.createManualThroughput(30_000));
        c = db.getContainer("c");
        Random r = new Random(18);
        for (int i = 0; i < ITEMS; i++) {
            ObjectNode item = Json.object().put("id", "i" + i).put("pk", "p" + (i % 23)).put("n", r.nextInt(50));
            switch (r.nextInt(10)) {
                case 0 -> { } // no model
                case 1 -> {
                    item.put("model", i);
                    item.put("copy", i);
                }
                case 2 -> {
                    item.putArray("model").add("Corolla");
                    item.putArray("copy").add("Corolla");
                }
                default -> {
                    String m = MODELS[r.nextInt(MODELS.length)];
                    item.put("model", m);
                    item.put("copy", m);
                }
            }
            c.createItem(item);
        }
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void theContainerHasFivePartitions() {
        assertThat(c.getFeedRanges()).as("30,000 RU/s at 6,000 per partition").hasSize(5);
    }

    @Test
    void indexedStringFiltersReturnTheScansRowsAndCostLess() {
        for (String filter : List.of("CONTAINS(c.%s, @s)", "CONTAINS(c.%s, @s, true)", "STARTSWITH(c.%s, @s, true)",
                "ENDSWITH(c.%s, @s, true)", "RegexMatch(c.%s, @s, 'i')")) {
            for (String s : List.of("coro", "Corolla", "SS", "ß", "i", "İ", "é", "😀", "lla", "y", "")) {
                compare("SELECT * FROM c WHERE " + filter, s, false);
            }
        }
        for (String like : List.of("Cor%", "%olla", "%r%", "50!%%", "a_b", "%y")) {
            compare("SELECT * FROM c WHERE c.%s LIKE @s ESCAPE '!'", like, false);
        }
        compare("SELECT c.id, c.n FROM c WHERE CONTAINS(c.%s, @s, true) ORDER BY c.n", "coro", true);
        compare("SELECT TOP 4 c.id, c.n FROM c WHERE CONTAINS(c.%s, @s, true) ORDER BY c.n DESC", "a", true);
        compare("SELECT c.id, c.n FROM c WHERE CONTAINS(c.%s, @s, true) ORDER BY c.n OFFSET 3 LIMIT 9", "o", true);
        compare("SELECT VALUE COUNT(1) FROM c WHERE ENDSWITH(c.%s, @s)", "a", true);
        compare("SELECT * FROM c WHERE c.n > 10 AND CONTAINS(c.%s, @s, true)", "ss", false);
    }

    /** The same query on the indexed path and on its excluded copy: same rows; the indexed one costs less. */
    private void compare(String template, String s, boolean ordered) {
        Run indexed = run(template.formatted("model"), s);
        Run scanned = run(template.formatted("copy"), s);
        String as = template + " / " + s;
        if (ordered) {
            assertThat(indexed.rows).as(as).containsExactlyElementsOf(scanned.rows);
        } else {
            assertThat(indexed.rows).as(as).containsExactlyInAnyOrderElementsOf(scanned.rows);
        }
        // a function the scan evaluates on every item is what the index saves on these small items (LIKE is not
        // priced as a call); a filter most strings pass reads about as much either way
        if (!template.contains("LIKE") && !template.contains("TOP") && !template.contains("ORDER BY")
                && scanned.rows.size() < ITEMS / 4) {
            assertThat(indexed.charge).as(as).isLessThan(scanned.charge);
        }
    }

    private record Run(List<String> rows, double charge) {
    }

    private Run run(String query, String s) {
        List<String> rows = new ArrayList<>();
        double charge = 0;
        SqlQuerySpec spec = new SqlQuerySpec(query, new SqlParameter("@s", s));
        for (FeedResponse<JsonNode> page : c.queryItems(spec, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(7)) {
            charge += page.getRequestCharge();
            for (JsonNode row : page.getResults()) {
                // the copy's name differs: compare what the rows say about the item
                rows.add(row.isObject() ? row.path("id").asText() + "/" + row.path("n").asText() : row.toString());
            }
        }
        return new Run(rows, charge);
    }
}
