package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.implementation.feedranges.FeedRangeEpkImpl;
import com.azure.cosmos.implementation.routing.PartitionKeyInternalHelper;
import com.azure.cosmos.implementation.routing.Range;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.StoreKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Containers with 1 and 5 physical partitions: items written through the SDK land in the range the SDK's own EPK
 * computation picks, and the server says so in {@code x-ms-documentdb-partitionkeyrangeid}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PhysicalPartitionsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("pp");
        db = client.getDatabase("pp");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @ParameterizedTest(name = "{0} RU/s -> {1} ranges")
    @CsvSource({"400, 1", "30000, 5"})
    void itemsLandInTheRangeTheSdkPicks(int rus, int ranges) {
        String name = "c" + rus;
        db.createContainer(new CosmosContainerProperties(name, "/pk"), ThroughputProperties.createManualThroughput(rus));
        CosmosContainer c = db.getContainer(name);
        List<FeedRange> feedRanges = c.getFeedRanges();
        assertThat(feedRanges).hasSize(ranges);
        ContainerInfo info = t.engine.readContainer("pp", name);
        assertThat(info.partitions().size()).isEqualTo(ranges);
        com.azure.cosmos.models.PartitionKeyDefinition sdkDefinition =
                c.read().getProperties().getPartitionKeyDefinition();

        Set<String> rangesUsed = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            String key = "tenant-" + i;
            PartitionKey pk = new PartitionKey(key);
            ObjectNode item = JSON.createObjectNode().put("id", "i" + i).put("pk", key);
            CosmosItemResponse<ObjectNode> r = c.createItem(item, pk, new CosmosItemRequestOptions());

            // the SDK's own EPK, and the SDK feed range holding it
            String epk = PartitionKeyInternalHelper.getEffectivePartitionKeyString(
                    ModelBridgeInternal.getPartitionKeyInternal(pk), sdkDefinition);
            Range<String> sdkRange = null;
            for (FeedRange fr : feedRanges) {
                Range<String> range = ((FeedRangeEpkImpl) fr).getRange();
                if (range.getMin().compareTo(epk) <= 0 && epk.compareTo(range.getMax()) < 0) {
                    sdkRange = range;
                }
            }
            assertThat(sdkRange).as("an SDK feed range holds %s", epk).isNotNull();

            // the server's range with the same bounds must hold the item in its key interval
            PhysicalPartition serverRange = null;
            for (PhysicalPartition p : info.partitions().partitions()) {
                if (p.minInclusive().equals(sdkRange.getMin()) && p.maxExclusive().equals(sdkRange.getMax())) {
                    serverRange = p;
                }
            }
            assertThat(serverRange).isNotNull();
            assertThat(storedIn(info, serverRange, "i" + i)).isTrue();
            assertThat(r.getResponseHeaders().get("x-ms-documentdb-partitionkeyrangeid")).isEqualTo(serverRange.id());
            rangesUsed.add(serverRange.id());
        }
        assertThat(rangesUsed).hasSize(ranges);
    }

    @Test
    void theSdkFollowsASplit() {
        db.createContainer("splitting", "/pk");
        CosmosContainer c = db.getContainer("splitting");
        for (int i = 0; i < 100; i++) {
            c.createItem(JSON.createObjectNode().put("id", "s" + i).put("pk", "k" + i));
        }
        assertThat(c.getFeedRanges()).hasSize(1);
        t.engine.split(t.engine.readContainer("pp", "splitting"), "0");

        // point reads: the range id in the responses differs from the SDK's cached one, so it refreshes its map
        for (int i = 0; i < 100; i++) {
            assertThat(c.readItem("s" + i, new PartitionKey("k" + i), ObjectNode.class).getStatusCode()).isEqualTo(200);
        }
        // bulk goes to the gone range first, gets 410/1002, refreshes, regroups to the children
        List<CosmosItemOperation> ops = new java.util.ArrayList<>();
        for (int i = 100; i < 400; i++) {
            ops.add(CosmosBulkOperations.getCreateItemOperation(JSON.createObjectNode().put("id", "s" + i)
                    .put("pk", "k" + i), new PartitionKey("k" + i)));
        }
        int created = 0;
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
            assertThat(r.getResponse().getStatusCode()).isEqualTo(201);
            created++;
        }
        assertThat(created).isEqualTo(300);
        assertThat(c.getFeedRanges()).hasSize(2);
    }

    /** Whether the item's key lies inside the physical partition's slice of the store. */
    private boolean storedIn(ContainerInfo info, PhysicalPartition p, String id) {
        byte[][] bounds = StoreKeys.itemRange(info.containerId(), p.minInclusive(), p.maxExclusive());
        try (Cursor cur = t.engine.store().scan(bounds[0], bounds[1])) {
            while (cur.next()) {
                if (StoreKeys.itemId(cur.key()).equals(id)) {
                    return true;
                }
            }
        }
        return false;
    }
}
