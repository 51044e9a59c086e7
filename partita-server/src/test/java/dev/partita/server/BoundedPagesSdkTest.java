package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Pages on a server that gives a request no time at all, through the Java SDK. COUNTs and COUNT-only GROUP BYs: every
 * page ends at the deadline after one item with its partial and a continuation (where it was a 408 before), and the
 * SDK, which follows every range's continuations and adds up the partials, gives the exact answer. SUM, AVG, MIN and
 * MAX, with or without GROUP BY, carry their state to each range's last page, which the SDK merges into the exact
 * answer too. The change feed:
 * every page ends after one log record, empty pages are 200s with the etag moved on, and the SDK reads to the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BoundedPagesSdkTest {
    static final int ITEMS = 60;

    TestServers t;
    CosmosClient client;
    CosmosContainer items;

    @BeforeAll
    void start() {
        t = TestServers.start(false, null, Limits.DEFAULTS.toBuilder().maxRequestExecution(Duration.ZERO).build());
        client = t.client();
        client.createDatabase("bounded");
        CosmosDatabase db = client.getDatabase("bounded");
        db.createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(12_000));
        items = db.getContainer("c");
        assertThat(items.getFeedRanges()).as("physical partitions").hasSize(2);
        for (int i = 0; i < ITEMS; i++) {
            items.createItem(Json.object().put("id", "i" + i).put("pk", "p" + i % 7).put("g", "g" + i % 3));
        }
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void aCountOverPagesCutAtTheDeadlineIsExact() {
        assertThat(rows("SELECT VALUE COUNT(1) FROM c", null)).containsExactly(String.valueOf(ITEMS));
        assertThat(rows("SELECT COUNT(1) AS n FROM c", null)).containsExactly("{\"n\":" + ITEMS + "}");
        assertThat(rows("SELECT VALUE COUNT(1) FROM c WHERE c.g = 'g1'", null))
                .containsExactly(String.valueOf(ITEMS / 3));
        assertThat(rows("SELECT VALUE COUNT(1) FROM c", new PartitionKey("p3"))).as("i %% 7 == 3")
                .containsExactly(String.valueOf((ITEMS + 3) / 7));
    }

    @Test
    void aCountingGroupByOverPagesCutAtTheDeadlineIsExact() {
        int each = ITEMS / 3;
        assertThat(rows("SELECT c.g, COUNT(1) AS n FROM c GROUP BY c.g", null)).containsExactlyInAnyOrder(
                "{\"g\":\"g0\",\"n\":" + each + "}", "{\"g\":\"g1\",\"n\":" + each + "}",
                "{\"g\":\"g2\",\"n\":" + each + "}");
        assertThat(rows("SELECT VALUE c.g FROM c GROUP BY c.g", null))
                .containsExactlyInAnyOrder("\"g0\"", "\"g1\"", "\"g2\"");
    }

    /**
     * SUM, AVG, MIN and MAX: every page but a range's last ends after one item with no row and the running state in its
     * continuation; the last answers the range's partial of the whole read, and the SDK's merge gives the exact answer
     * (it was a 408). A string among the numbers makes the sum undefined in every range and is MAX's value.
     */
    @Test
    void sumsAveragesAndExtremesOverPagesCutAtTheDeadlineAreExact() {
        CosmosContainer sums = numbered("sums", null);
        assertThat(rows(sums, "SELECT VALUE SUM(c.n) FROM c", null)).containsExactly("780.0");
        assertThat(rows(sums, "SELECT VALUE AVG(c.n) FROM c", null)).containsExactly("19.5");
        assertThat(rows(sums, "SELECT VALUE MIN(c.n) FROM c", null)).containsExactly("0");
        assertThat(rows(sums, "SELECT VALUE MAX(c.n) FROM c WHERE c.n < 30", null)).containsExactly("29");
        assertThat(rows(sums, "SELECT SUM(c.n) AS s, AVG(c.n) AS a, MIN(c.n) AS lo, MAX(c.n) AS hi, COUNT(1) AS k"
                + " FROM c", null)).containsExactly("{\"s\":780.0,\"a\":19.5,\"lo\":0,\"hi\":39,\"k\":40}");
        assertThat(rows(sums, "SELECT VALUE SUM(c.n) FROM c", new PartitionKey("p3"))).as("3+10+17+24+31+38")
                .containsExactly("123.0");
        CosmosContainer mixed = numbered("mixed", "x");
        // undefined: the JS SDK gives no row; the Java SDK shows its undefined VALUE aggregate as null, as it does
        // over the service's pages (an undefined answer is carried as the partials of nothing, which it merges)
        assertThat(rows(mixed, "SELECT VALUE SUM(c.n) FROM c", null)).as("undefined").containsExactly("null");
        // an aliased undefined SUM the Java SDK shows as {}, from the undefined partials every range sends anyway
        assertThat(rows(mixed, "SELECT SUM(c.n) AS s, MIN(c.n) AS lo, COUNT(1) AS k FROM c", null))
                .containsExactly("{\"s\":{},\"lo\":0,\"k\":41}");
        assertThat(rows(mixed, "SELECT VALUE MAX(c.n) FROM c", null)).containsExactly("\"x\"");
        assertThat(rows(mixed, "SELECT VALUE MIN(c.n) FROM c", null)).containsExactly("0");
    }

    /**
     * GROUP BY with SUM, AVG, MIN and MAX: every range's pages but its last carry the groups read so far and answer the
     * partials of nothing in one of them, the last its groups of the whole read (it was a 408). The SDK's merge gives
     * what an unhurried server gives: over numbers, a group with a string (SUM and AVG undefined, MAX the string), one
     * with an object (MIN and MAX undefined too), one whose values are all missing, one whose key is, keys that are
     * not paths, two keys, and a partition key.
     */
    @Test
    void groupedSumsAveragesAndExtremesOverPagesCutAtTheDeadlineAreTheUnhurriedAnswer() {
        List<String> queries = List.of(
                "SELECT c.g, SUM(c.n) AS s, AVG(c.n) AS a, MIN(c.n) AS lo, MAX(c.n) AS hi, COUNT(1) AS k FROM c"
                        + " GROUP BY c.g",
                "SELECT VALUE SUM(c.n) FROM c GROUP BY c.g", "SELECT VALUE AVG(c.n) FROM c GROUP BY c.g",
                "SELECT VALUE MIN(c.n) FROM c GROUP BY c.g", "SELECT VALUE MAX(c.n) FROM c GROUP BY c.g",
                "SELECT UPPER(c.g) AS g, MAX(c.n) AS hi, COUNT(c.n) AS k FROM c WHERE c.n != 7 GROUP BY UPPER(c.g)",
                "SELECT c.g, c.pk, SUM(c.n) AS s, MIN(c.n) AS lo FROM c GROUP BY c.g, c.pk",
                "SELECT c.n % 2 AS odd, AVG(c.n) AS a FROM c WHERE IS_NUMBER(c.n) GROUP BY c.n % 2");
        try (TestServers unhurried = TestServers.start(false, null, Limits.DEFAULTS);
                CosmosClient timely = unhurried.client()) {
            timely.createDatabase("bounded");
            CosmosContainer expected = grouped(timely);
            CosmosContainer hurried = grouped(client);
            for (String q : queries) {
                assertThat(rows(hurried, q, null)).as(q).containsExactlyInAnyOrderElementsOf(rows(expected, q, null));
                assertThat(rows(hurried, q, new PartitionKey("p3"))).as(q + ", partition key p3")
                        .containsExactlyInAnyOrderElementsOf(rows(expected, q, new PartitionKey("p3")));
            }
            // the answer itself, not only the same one: g0's string makes its sum undefined, g2 is 2, 5, 8, ... 44
            assertThat(rows(hurried, "SELECT VALUE SUM(c.n) FROM c GROUP BY c.g", null)).as("sums")
                    .contains("330.0", "345.0").doesNotContain("315.0");
            assertThat(rows(hurried, "SELECT c.g, MAX(c.n) AS hi FROM c WHERE c.g = 'g0' GROUP BY c.g", null))
                    .containsExactly("{\"g\":\"g0\",\"hi\":\"x\"}");
        }
    }

    /**
     * The items of {@link #groupedSumsAveragesAndExtremesOverPagesCutAtTheDeadlineAreTheUnhurriedAnswer}: 0 to 44 in
     * groups g0-g2 by {@code n % 3}, with a string in g0, an object and a double in g3, an item without {@code n} in
     * g1, items without {@code n} alone in g4, and two items without a group.
     */
    private static CosmosContainer grouped(CosmosClient client) {
        CosmosDatabase db = client.getDatabase("bounded");
        db.createContainer(new CosmosContainerProperties("grouped", "/pk"),
                ThroughputProperties.createManualThroughput(12_000));
        CosmosContainer c = db.getContainer("grouped");
        for (int i = 0; i < 45; i++) {
            c.createItem(Json.object().put("id", "n" + i).put("pk", "p" + i % 7).put("g", "g" + i % 3).put("n", i));
        }
        c.createItem(Json.object().put("id", "s").put("pk", "p1").put("g", "g0").put("n", "x"));
        ObjectNode object = Json.object().put("id", "o").put("pk", "p3").put("g", "g3");
        object.set("n", Json.object().put("a", 1));
        c.createItem(object);
        c.createItem(Json.object().put("id", "d").put("pk", "p4").put("g", "g3").put("n", 2.5));
        c.createItem(Json.object().put("id", "u").put("pk", "p3").put("g", "g1"));
        c.createItem(Json.object().put("id", "m1").put("pk", "p2").put("g", "g4"));
        c.createItem(Json.object().put("id", "m2").put("pk", "p3").put("g", "g4"));
        c.createItem(Json.object().put("id", "k1").put("pk", "p5").put("n", 100));
        c.createItem(Json.object().put("id", "k2").put("pk", "p3").put("n", 1));
        return c;
    }

    /** A container of items 0 to 39 with {@code n} their number, and one more whose {@code n} is {@code odd}. */
    private CosmosContainer numbered(String id, String odd) {
        CosmosDatabase db = client.getDatabase("bounded");
        db.createContainer(new CosmosContainerProperties(id, "/pk"),
                ThroughputProperties.createManualThroughput(12_000));
        CosmosContainer c = db.getContainer(id);
        for (int i = 0; i < 40; i++) {
            c.createItem(Json.object().put("id", "n" + i).put("pk", "p" + i % 7).put("n", i));
        }
        if (odd != null) {
            c.createItem(Json.object().put("id", "odd").put("pk", "p1").put("n", odd));
        }
        return c;
    }

    /** The rows the SDK gives, as JSON text. */
    @Test
    void theChangeFeedReadsToTheEndOverPagesCutAtTheDeadline() {
        for (boolean complete : new boolean[] {false, true}) {
            FeedTesting.Drained<JsonNode> d = FeedTesting.drain(items, CosmosChangeFeedRequestOptions
                    .createForProcessingFromBeginning(FeedRange.forFullRange())
                    .setCompleteAfterAllCurrentChangesRetrieved(complete), JsonNode.class);
            assertThat(d.items()).extracting(n -> n.get("id").asText()).as("complete after current: %s", complete)
                    .hasSize(ITEMS).doesNotHaveDuplicates();
            assertThat(d.pages()).as("each page ended after one record").isGreaterThanOrEqualTo(ITEMS);
        }
    }

    private List<String> rows(String query, PartitionKey pk) {
        return rows(items, query, pk);
    }

    private static List<String> rows(CosmosContainer items, String query, PartitionKey pk) {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
        if (pk != null) {
            o.setPartitionKey(pk);
        }
        List<String> out = new ArrayList<>();
        items.queryItems(query, o, JsonNode.class).forEach(r -> out.add(r.toString()));
        return out;
    }
}
