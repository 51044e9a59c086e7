package dev.partita.server;

import dev.partita.core.request.RequestOptions;
import static dev.partita.server.FeedTesting.drain;
import static dev.partita.server.FeedTesting.readPages;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.server.FeedTesting.Drained;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A feed being read continues across a split of a physical partition: the SDK's next request for the gone range gets
 * 410/1002, it re-reads the partition key ranges and continues on the two children from the parent's etag. Nothing is
 * lost and nothing is delivered twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeFeedSplitTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("split");
        db = client.getDatabase("split");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private CosmosContainer container(String name, int ranges) {
        db.createContainer(new CosmosContainerProperties(name, "/pk"),
                ThroughputProperties.createManualThroughput(ranges * 6000));
        CosmosContainer c = db.getContainer(name);
        assertThat(c.getFeedRanges()).hasSize(ranges);
        return c;
    }

    private static void write(CosmosContainer c, int from, int to) {
        for (int i = from; i < to; i++) {
            c.createItem(JSON.createObjectNode().put("id", "i" + i).put("pk", "k" + i));
        }
    }

    private void split(String container, String rangeId) {
        t.engine.split(t.engine.readContainer("split", container), rangeId);
    }

    @Test
    void latestVersionAcrossASplit() {
        CosmosContainer c = container("lv", 2);
        write(c, 0, 60);
        Drained<ObjectNode> first = readPages(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(10), ObjectNode.class, 3);
        assertThat(first.items()).hasSize(30);

        split("lv", "0");
        write(c, 60, 80);
        Drained<ObjectNode> rest = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(first.continuation()).setMaxItemCount(10), ObjectNode.class);

        List<String> all = new ArrayList<>();
        first.items().forEach(n -> all.add(n.get("id").asText()));
        rest.items().forEach(n -> all.add(n.get("id").asText()));
        assertThat(all).doesNotHaveDuplicates().hasSize(80);
        assertThat(c.getFeedRanges()).hasSize(3);

        // a second split, of a child, while a continuation from before the first one is still being resumed
        split("lv", "2");
        write(c, 80, 90);
        Drained<ObjectNode> last = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(rest.continuation()), ObjectNode.class);
        assertThat(last.items()).extracting(n -> n.get("id").asText()).containsExactlyInAnyOrder(
                "i80", "i81", "i82", "i83", "i84", "i85", "i86", "i87", "i88", "i89");
    }

    @Test
    void allVersionsAndDeletesAcrossASplit() {
        CosmosContainer c = container("avad", 3);
        String start = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                .allVersionsAndDeletes(), ChangeFeedProcessorItem.class).continuation();
        write(c, 0, 45);
        for (int i = 0; i < 45; i += 3) {
            c.deleteItem("i" + i, new PartitionKey("k" + i), new CosmosItemRequestOptions());
        }
        Drained<ChangeFeedProcessorItem> first = readPages(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(start).allVersionsAndDeletes().setMaxItemCount(8),
                ChangeFeedProcessorItem.class, 2);

        split("avad", "1");
        write(c, 45, 60);
        Drained<ChangeFeedProcessorItem> rest = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(first.continuation()).allVersionsAndDeletes()
                .setMaxItemCount(8), ChangeFeedProcessorItem.class);

        Set<Long> lsns = new HashSet<>();
        int deletes = 0;
        for (List<ChangeFeedProcessorItem> part : List.of(first.items(), rest.items())) {
            for (ChangeFeedProcessorItem i : part) {
                assertThat(lsns.add(i.getChangeFeedMetaData().getLogSequenceNumber())).as("no change twice").isTrue();
                if (i.getCurrent() == null || i.getCurrent().isEmpty()) { // the service sends "current": {}
                    deletes++;
                }
            }
        }
        assertThat(lsns).hasSize(45 + 15 + 15);
        assertThat(deletes).isEqualTo(15);
    }
}
