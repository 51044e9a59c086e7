package dev.partita.server;

import dev.partita.core.request.RequestOptions;
import static dev.partita.server.FeedTesting.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ChangeFeedMetaData;
import com.azure.cosmos.models.ChangeFeedOperationType;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.server.FeedTesting.Drained;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The all-versions-and-deletes change feed through the SDK's pull model (three physical partitions): every create,
 * replace, upsert and delete with the metadata the SDK reads, TTL expirations marked as such, scoped to the container,
 * a feed range and a partition key; the retention window; and TTL in the latest-version feed, reads and queries.
 */
class ChangeFeedAllVersionsTest extends FeedServerTest {

    ChangeFeedAllVersionsTest() {
        super("avad");
    }

    private CosmosContainer container(String name, ChangeFeedPolicy policy) {
        CosmosContainerProperties props = new CosmosContainerProperties(name, "/pk");
        props.setDefaultTimeToLiveInSeconds(-1); // TTL on, items opt in with "ttl"
        if (policy != null) {
            props.setChangeFeedPolicy(policy);
        }
        db.createContainer(props, ThroughputProperties.createManualThroughput(18000));
        CosmosContainer c = db.getContainer(name);
        assertThat(c.getFeedRanges()).hasSize(3);
        return c;
    }

    private static ObjectNode item(String id, String pk, int v) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("v", v);
    }

    private static CosmosChangeFeedRequestOptions avadFromNow(FeedRange range) {
        return CosmosChangeFeedRequestOptions.createForProcessingFromNow(range).allVersionsAndDeletes();
    }

    private static CosmosChangeFeedRequestOptions avadFrom(String continuation) {
        return CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(continuation)
                .allVersionsAndDeletes();
    }

    /** The changes of one item, in feed order. */
    private static Map<String, List<ChangeFeedProcessorItem>> byId(List<ChangeFeedProcessorItem> items) {
        Map<String, List<ChangeFeedProcessorItem>> out = new HashMap<>();
        for (ChangeFeedProcessorItem i : items) {
            // a delete's current is {} (as the service sends it): its id is in the metadata
            String id = i.getCurrent() != null && i.getCurrent().has("id") ? i.getCurrent().get("id").asText()
                    : i.toJsonNode().get("metadata").get("id").asText();
            out.computeIfAbsent(id, k -> new ArrayList<>()).add(i);
        }
        return out;
    }

    private static List<ChangeFeedOperationType> ops(List<ChangeFeedProcessorItem> changes) {
        return changes.stream().map(i -> i.getChangeFeedMetaData().getOperationType()).toList();
    }

    @Test
    void everyOperationWithItsMetadataAndTtlExpiriesMarked() {
        CosmosContainer c = container("ops", null);
        Drained<ChangeFeedProcessorItem> start = drain(c, avadFromNow(FeedRange.forFullRange()),
                ChangeFeedProcessorItem.class);
        assertThat(start.items()).isEmpty();

        c.createItem(item("a", "p1", 1));
        c.replaceItem(item("a", "p1", 2), "a", new PartitionKey("p1"), new CosmosItemRequestOptions());
        c.upsertItem(item("a", "p1", 3));                 // upsert of an existing item: a replace
        c.upsertItem(item("b", "p2", 1));                 // upsert of a new item: a create
        c.deleteItem("a", new PartitionKey("p1"), new CosmosItemRequestOptions());
        c.createItem(item("e", "p3", 1).put("ttl", 5));   // expires
        for (int i = 0; i < 12; i++) {
            c.createItem(item("f" + i, "q" + i, 1));      // spread over every range
        }
        clock.advance(Duration.ofSeconds(60));
        assertThat(t.engine.sweepExpired()).isEqualTo(1);

        Drained<ChangeFeedProcessorItem> d = drain(c, avadFrom(start.continuation()), ChangeFeedProcessorItem.class);
        Map<String, List<ChangeFeedProcessorItem>> byId = byId(d.items());
        assertThat(d.items()).hasSize(4 + 1 + 2 + 12); // a, b, e and the f items

        List<ChangeFeedProcessorItem> a = byId.get("a");
        assertThat(ops(a)).containsExactly(ChangeFeedOperationType.CREATE, ChangeFeedOperationType.REPLACE,
                ChangeFeedOperationType.REPLACE, ChangeFeedOperationType.DELETE);
        assertThat(a.stream().map(i -> i.getCurrent().isEmpty() ? -1 : i.getCurrent().get("v").asInt()))
                .containsExactly(1, 2, 3, -1);
        for (int i = 1; i < a.size(); i++) {
            ChangeFeedMetaData m = a.get(i).getChangeFeedMetaData();
            assertThat(m.getLogSequenceNumber()).isGreaterThan(a.get(i - 1).getChangeFeedMetaData()
                    .getLogSequenceNumber());
            assertThat(m.getPreviousLogSequenceNumber()).as("previous image LSN")
                    .isEqualTo(a.get(i - 1).getChangeFeedMetaData().getLogSequenceNumber());
        }
        assertThat(a.get(0).getChangeFeedMetaData().getPreviousLogSequenceNumber()).isZero();
        assertThat(a.get(0).getChangeFeedMetaData().getConflictResolutionTimestamp()).isNotNull();
        ChangeFeedProcessorItem delete = a.get(3);
        // the service's "current": {} (the Java SDK's own FullFidelityChangeFeedTest: get("current").isEmpty())
        assertThat(delete.getCurrent()).as("an empty current on a delete").isEmpty();
        assertThat(delete.getChangeFeedMetaData().isTimeToLiveExpired()).isFalse();
        JsonNode meta = delete.toJsonNode().get("metadata");
        assertThat(meta.get("id").asText()).isEqualTo("a");
        assertThat(meta.get("partitionKey").get("pk").asText()).isEqualTo("p1");
        assertThat(delete.getPrevious().get("v").asInt()).as("the deleted version").isEqualTo(3);

        assertThat(ops(byId.get("b"))).containsExactly(ChangeFeedOperationType.CREATE);

        List<ChangeFeedProcessorItem> e = byId.get("e");
        assertThat(ops(e)).containsExactly(ChangeFeedOperationType.CREATE, ChangeFeedOperationType.DELETE);
        assertThat(e.get(1).getChangeFeedMetaData().isTimeToLiveExpired()).isTrue();
        assertThat(e.get(1).toJsonNode().get("metadata").get("partitionKey").get("pk").asText()).isEqualTo("p3");

        // nothing more
        assertThat(drain(c, avadFrom(d.continuation()), ChangeFeedProcessorItem.class).items()).isEmpty();
    }

    @Test
    void scopedToAFeedRangeAndToAPartitionKey() {
        CosmosContainer c = container("scoped", null);
        List<FeedRange> ranges = c.getFeedRanges();
        List<String> starts = new ArrayList<>();
        for (FeedRange r : ranges) {
            starts.add(drain(c, avadFromNow(r), ChangeFeedProcessorItem.class).continuation());
        }
        String pkStart = drain(c, avadFromNow(FeedRange.forLogicalPartition(new PartitionKey("k1"))),
                ChangeFeedProcessorItem.class).continuation();
        for (int i = 0; i < 30; i++) {
            c.createItem(item("s" + i, "k" + (i % 6), 1));
        }
        for (int i = 0; i < 30; i += 5) {
            c.deleteItem("s" + i, new PartitionKey("k" + (i % 6)), new CosmosItemRequestOptions());
        }
        int total = 0;
        for (String s : starts) {
            total += drain(c, avadFrom(s), ChangeFeedProcessorItem.class).items().size();
        }
        assertThat(total).as("every change in exactly one range").isEqualTo(36);

        List<ChangeFeedProcessorItem> k1 = drain(c, avadFrom(pkStart), ChangeFeedProcessorItem.class).items();
        // k1: s1, s7, s13, s19, s25 created; s25 deleted (25 % 5 == 0)
        assertThat(k1).hasSize(6);
        assertThat(ops(k1).subList(0, 5)).containsOnly(ChangeFeedOperationType.CREATE);
        assertThat(ops(k1).get(5)).isEqualTo(ChangeFeedOperationType.DELETE);
        assertThat(k1.get(5).toJsonNode().get("metadata").get("id").asText()).isEqualTo("s25");
    }

    @Test
    void expiredItemsVanishAtOnceFromReadsQueriesAndTheLatestVersionFeed() {
        CosmosContainer c = container("ttl", null);
        c.createItem(item("keep", "p", 1));
        c.createItem(item("gone", "p", 1).put("ttl", 10));
        clock.advance(Duration.ofSeconds(20)); // expired, not yet swept
        assertThatThrownBy(() -> c.readItem("gone", new PartitionKey("p"), ObjectNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
        assertThat(c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).stream()
                .map(n -> n.get("id").asText())).containsExactly("keep");
        assertThat(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()),
                ObjectNode.class).items().stream().map(n -> n.get("id").asText())).containsExactly("keep");
    }

    @Test
    void aContinuationOlderThanTheRetentionWindowIsRefused() {
        CosmosContainer c = container("retention", ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(
                Duration.ofMinutes(1)));
        String start = drain(c, avadFromNow(FeedRange.forFullRange()), ChangeFeedProcessorItem.class).continuation();
        c.createItem(item("r", "p", 1));
        c.upsertItem(item("r", "p", 2));
        String recent = drain(c, avadFrom(start), ChangeFeedProcessorItem.class).continuation();
        clock.advance(Duration.ofMinutes(3));
        assertThat(t.engine.pruneChangeLog()).isEqualTo(1); // the first version of r

        assertThatThrownBy(() -> drain(c, avadFrom(start), ChangeFeedProcessorItem.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
        // a continuation taken after the pruned change still works, and so does the latest-version feed
        assertThat(drain(c, avadFrom(recent), ChangeFeedProcessorItem.class).items()).isEmpty();
        assertThat(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()),
                ObjectNode.class).items()).extracting(n -> n.get("v").asInt()).containsExactly(2);
    }

    @Test
    void theSdkRefusesToStartAnAllVersionsFeedFromTheBeginning() {
        assertThatThrownBy(() -> CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).allVersionsAndDeletes())
                .isInstanceOf(IllegalStateException.class);
    }
}
