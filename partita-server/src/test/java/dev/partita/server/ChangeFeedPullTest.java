package dev.partita.server;

import dev.partita.core.request.RequestOptions;
import static dev.partita.server.FeedTesting.drain;
import static dev.partita.server.FeedTesting.epk;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.implementation.feedranges.FeedRangeEpkImpl;
import com.azure.cosmos.implementation.routing.Range;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.server.FeedTesting.Drained;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The latest-version change feed through the SDK's pull model on a container with four physical partitions: over the
 * whole container, one feed range, an EPK sub-range, a logical partition and a hierarchical-key prefix; starting from
 * the beginning, from now, from a point in time and from a continuation.
 */
class ChangeFeedPullTest extends FeedServerTest {
    static final int RANGES = 4;

    ChangeFeedPullTest() {
        super("cf");
    }

    private CosmosContainer container(String name) {
        db.createContainer(new CosmosContainerProperties(name, "/pk"),
                ThroughputProperties.createManualThroughput(RANGES * 6000));
        CosmosContainer c = db.getContainer(name);
        assertThat(c.getFeedRanges()).hasSize(RANGES);
        return c;
    }

    private static ObjectNode item(String id, String pk, int v) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("v", v);
    }

    /** 40 items over 10 logical partitions; 10 replaced (v=2), 5 deleted. Returns the expected live ids → v. */
    private Map<String, Integer> populate(CosmosContainer c) {
        Map<String, Integer> live = new TreeMap<>();
        for (int i = 0; i < 40; i++) {
            c.createItem(item("i" + i, "k" + (i % 10), 1));
            live.put("i" + i, 1);
        }
        for (int i = 0; i < 40; i += 4) {
            c.replaceItem(item("i" + i, "k" + (i % 10), 2), "i" + i, new PartitionKey("k" + (i % 10)),
                    new CosmosItemRequestOptions());
            live.put("i" + i, 2);
        }
        for (int i = 1; i < 40; i += 8) {
            c.deleteItem("i" + i, new PartitionKey("k" + (i % 10)), new CosmosItemRequestOptions());
            live.remove("i" + i);
        }
        return live;
    }

    private static Map<String, Integer> versions(List<ObjectNode> items) {
        Map<String, Integer> out = new TreeMap<>();
        for (ObjectNode n : items) {
            assertThat(out.put(n.get("id").asText(), n.get("v").asInt())).as("each item once").isNull();
        }
        return out;
    }

    /** Within each logical partition the changes come in ascending LSN order. */
    private static void assertLsnOrderPerPartition(List<ObjectNode> items) {
        Map<String, Long> last = new HashMap<>();
        for (ObjectNode n : items) {
            long lsn = n.get("_lsn").asLong();
            Long before = last.put(n.get("pk").asText(), lsn);
            if (before != null) {
                assertThat(lsn).isGreaterThan(before);
            }
        }
    }

    @Test
    void fromTheBeginningEachLiveItemOnceInItsLatestVersion() {
        CosmosContainer c = container("beginning");
        Map<String, Integer> live = populate(c);
        Drained<ObjectNode> d = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(7), ObjectNode.class);
        assertThat(versions(d.items())).isEqualTo(live);
        assertLsnOrderPerPartition(d.items());
        assertThat(d.pages()).as("small pages").isGreaterThan(RANGES);
        // system properties as stored, plus _lsn
        assertThat(d.items().get(0).has("_etag")).isTrue();
        assertThat(d.items().get(0).has("_ts")).isTrue();
    }

    @Test
    void aContinuationResumesWithOnlyWhatChangedSince() {
        CosmosContainer c = container("continuation");
        populate(c);
        Drained<ObjectNode> first = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()), ObjectNode.class);
        assertThat(first.continuation()).isNotNull();

        for (int i = 100; i < 105; i++) {
            c.createItem(item("i" + i, "k" + (i % 10), 1));
        }
        c.upsertItem(item("i0", "k0", 3));
        c.upsertItem(item("i0", "k0", 4)); // two changes of one item: only the latest comes
        c.deleteItem("i2", new PartitionKey("k2"), new CosmosItemRequestOptions());

        Drained<ObjectNode> second = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(first.continuation()), ObjectNode.class);
        assertThat(versions(second.items())).isEqualTo(Map.of("i100", 1, "i101", 1, "i102", 1, "i103", 1,
                "i104", 1, "i0", 4));

        Drained<ObjectNode> third = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(second.continuation()), ObjectNode.class);
        assertThat(third.items()).isEmpty();
    }

    @Test
    void completeAfterAllCurrentChangesRetrievedEndsAtTheHead() {
        // the SDK takes each range's end LSN from the first response's session token and stops once the etag
        // reaches it: both must come from the same LSN counter
        CosmosContainer c = container("complete");
        Map<String, Integer> live = populate(c);
        Drained<ObjectNode> d = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(5)
                .setCompleteAfterAllCurrentChangesRetrieved(true), ObjectNode.class);
        assertThat(versions(d.items())).isEqualTo(live);
    }

    @Test
    void fromNowSeesOnlyLaterChanges() {
        CosmosContainer c = container("now");
        populate(c);
        Drained<ObjectNode> now = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromNow(FeedRange.forFullRange()), ObjectNode.class);
        assertThat(now.items()).isEmpty();
        c.createItem(item("n1", "k1", 1));
        c.createItem(item("n2", "k7", 1));
        c.upsertItem(item("i3", "k3", 9));
        Drained<ObjectNode> later = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(now.continuation()), ObjectNode.class);
        assertThat(versions(later.items())).isEqualTo(Map.of("n1", 1, "n2", 1, "i3", 9));
    }

    @Test
    void fromAPointInTimeSeesChangesWrittenAtOrAfterIt() {
        CosmosContainer c = container("pointintime");
        populate(c);
        clock.advance(Duration.ofSeconds(30));
        Instant t0 = clock.instant().minusSeconds(10);
        c.createItem(item("p1", "k1", 1));
        c.upsertItem(item("i4", "k4", 7));
        Drained<ObjectNode> d = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromPointInTime(t0, FeedRange.forFullRange()), ObjectNode.class);
        assertThat(versions(d.items())).isEqualTo(Map.of("p1", 1, "i4", 7));

        // the point in time stays a filter on the continuation too
        c.createItem(item("p2", "k2", 1));
        Drained<ObjectNode> more = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(d.continuation()), ObjectNode.class);
        assertThat(versions(more.items())).isEqualTo(Map.of("p2", 1));
    }

    @Test
    void eachFeedRangeHasExactlyItsOwnItems() {
        CosmosContainer c = container("ranges");
        Map<String, Integer> live = populate(c);
        PartitionKeyDefinition def = c.read().getProperties().getPartitionKeyDefinition();
        Set<String> seen = new HashSet<>();
        for (FeedRange fr : c.getFeedRanges()) {
            Range<String> range = ((FeedRangeEpkImpl) fr).getRange();
            Drained<ObjectNode> d = drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(fr),
                    ObjectNode.class);
            for (ObjectNode n : d.items()) {
                String e = epk(new PartitionKey(n.get("pk").asText()), def);
                assertThat(e).isGreaterThanOrEqualTo(range.getMin()).isLessThan(range.getMax());
                assertThat(seen.add(n.get("id").asText())).as("ranges are disjoint").isTrue();
            }
            assertLsnOrderPerPartition(d.items());
        }
        assertThat(seen).isEqualTo(live.keySet());
    }

    @Test
    void anEpkSubRangeOfOnePhysicalPartition() {
        CosmosContainer c = container("subrange");
        Map<String, Integer> live = populate(c);
        PartitionKeyDefinition def = c.read().getProperties().getPartitionKeyDefinition();
        // the EPKs of the live items' keys, and the physical range holding the most of them
        Map<String, String> epkOfId = new HashMap<>();
        for (String id : live.keySet()) {
            int i = Integer.parseInt(id.substring(1));
            epkOfId.put(id, epk(new PartitionKey("k" + (i % 10)), def));
        }
        Range<String> best = null;
        List<String> bestEpks = List.of();
        for (FeedRange fr : c.getFeedRanges()) {
            Range<String> r = ((FeedRangeEpkImpl) fr).getRange();
            List<String> inside = epkOfId.values().stream()
                    .filter(e -> e.compareTo(r.getMin()) >= 0 && e.compareTo(r.getMax()) < 0)
                    .distinct().sorted().toList();
            if (inside.size() > bestEpks.size()) {
                best = r;
                bestEpks = inside;
            }
        }
        assertThat(bestEpks.size()).as("a range with two logical partitions").isGreaterThanOrEqualTo(2);
        String split = bestEpks.get(bestEpks.size() / 2);
        FeedRange lower = new FeedRangeEpkImpl(new Range<>(best.getMin(), split, true, false));
        FeedRange upper = new FeedRangeEpkImpl(new Range<>(split, best.getMax(), true, false));
        Range<String> range = best;
        Set<String> expectLower = epkOfId.entrySet().stream()
                .filter(e -> e.getValue().compareTo(range.getMin()) >= 0 && e.getValue().compareTo(split) < 0)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        Set<String> expectUpper = epkOfId.entrySet().stream()
                .filter(e -> e.getValue().compareTo(split) >= 0 && e.getValue().compareTo(range.getMax()) < 0)
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertThat(ids(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(lower),
                ObjectNode.class))).isEqualTo(expectLower).isNotEmpty();
        assertThat(ids(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(upper),
                ObjectNode.class))).isEqualTo(expectUpper).isNotEmpty();
    }

    @Test
    void oneLogicalPartitionInLsnOrder() {
        CosmosContainer c = container("logical");
        Map<String, Integer> live = populate(c);
        c.upsertItem(item("i13", "k3", 5)); // moves i13 after i3's and i23's latest changes
        live.put("i13", 5);
        Drained<ObjectNode> d = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forLogicalPartition(new PartitionKey("k3"))),
                ObjectNode.class);
        Map<String, Integer> expected = new TreeMap<>(live);
        expected.keySet().removeIf(id -> Integer.parseInt(id.substring(1)) % 10 != 3);
        assertThat(versions(d.items())).isEqualTo(expected);
        assertThat(d.items().get(d.items().size() - 1).get("id").asText()).isEqualTo("i13");
        assertLsnOrderPerPartition(d.items());

        c.createItem(item("x3", "k3", 1));
        c.createItem(item("x4", "k4", 1));
        Drained<ObjectNode> more = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(d.continuation()), ObjectNode.class);
        assertThat(ids(more)).containsExactly("x3");
    }

    @Test
    void aHierarchicalKeyPrefix() {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/tenant", "/user"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hpk", def),
                ThroughputProperties.createManualThroughput(RANGES * 6000));
        CosmosContainer c = db.getContainer("hpk");
        List<String> tenant1 = new ArrayList<>();
        List<String> tenant1user2 = new ArrayList<>();
        for (int i = 0; i < 36; i++) {
            String tenant = "t" + (i % 3);
            String user = "u" + (i % 4);
            String id = "h" + i;
            c.createItem(JSON.createObjectNode().put("id", id).put("tenant", tenant).put("user", user));
            if (tenant.equals("t1")) {
                tenant1.add(id);
                if (user.equals("u2")) {
                    tenant1user2.add(id);
                }
            }
        }
        FeedRange prefix = FeedRange.forLogicalPartition(new PartitionKeyBuilder().add("t1").build());
        assertThat(ids(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(prefix),
                ObjectNode.class))).isEqualTo(new HashSet<>(tenant1));
        FeedRange full = FeedRange.forLogicalPartition(new PartitionKeyBuilder().add("t1").add("u2").build());
        assertThat(ids(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(full),
                ObjectNode.class))).isEqualTo(new HashSet<>(tenant1user2)).isNotEmpty();
    }

    private static Set<String> ids(Drained<ObjectNode> d) {
        Set<String> out = new HashSet<>();
        for (ObjectNode n : d.items()) {
            assertThat(out.add(n.get("id").asText())).isTrue();
        }
        return out;
    }
}
