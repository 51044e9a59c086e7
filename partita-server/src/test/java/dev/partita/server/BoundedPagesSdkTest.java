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
 * SDK, which follows every range's continuations and adds up the partials, gives the exact answer. The change feed:
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
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
        if (pk != null) {
            o.setPartitionKey(pk);
        }
        List<String> out = new ArrayList<>();
        items.queryItems(query, o, JsonNode.class).forEach(r -> out.add(r.toString()));
        return out;
    }
}
