package dev.partita.server;

import static dev.partita.server.FeedTesting.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.implementation.Undefined;
import com.azure.cosmos.models.ChangeFeedOperationType;
import com.azure.cosmos.models.ChangeFeedPolicy;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.server.FeedTesting.Drained;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code deleteAllItemsByPartitionKey} through the SDK: 200 at once, the items gone for point reads, queries, the
 * change feed and a re-create of the same id, then removed in the background (deletes in the all-versions feed); a
 * hierarchical key needs every level.
 */
class PartitionKeyDeleteSdkTest extends FeedServerTest {

    PartitionKeyDeleteSdkTest() {
        super("pkdelete");
    }

    private static ObjectNode item(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("n", id.length());
    }

    private static List<String> ids(CosmosContainer c, String query, PartitionKey pk) {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
        if (pk != null) {
            o.setPartitionKey(pk);
        }
        return c.queryItems(query, o, JsonNode.class).stream()
                .map(n -> n.isTextual() ? n.asText() : n.get("id").asText()).toList();
    }

    private int removeInTheBackground() {
        int removed = 0;
        for (int run = 0; run < 50; run++) {
            int n = t.engine.removeDeletedItems();
            removed += n;
            if (n == 0) {
                break;
            }
            clock.advance(Duration.ofSeconds(1));
        }
        return removed;
    }

    @Test
    void theItemsAreGoneAtOnceAndRemovedInTheBackground() {
        CosmosContainerProperties props = new CosmosContainerProperties("flat", "/pk");
        props.setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10)));
        db.createContainer(props, ThroughputProperties.createManualThroughput(12000));
        CosmosContainer c = db.getContainer("flat");
        for (int i = 0; i < 8; i++) {
            c.createItem(item("a" + i, "a"));
        }
        c.createItem(item("b1", "b"));
        Drained<ChangeFeedProcessorItem> start = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromNow(FeedRange.forFullRange()).allVersionsAndDeletes(),
                ChangeFeedProcessorItem.class);

        CosmosItemResponse<Object> deleted = c.deleteAllItemsByPartitionKey(new PartitionKey("a"),
                new CosmosItemRequestOptions());
        assertThat(deleted.getStatusCode()).isEqualTo(200);
        assertThat(deleted.getRequestCharge()).isPositive();
        assertThat(deleted.getSessionToken()).contains(":");

        assertThatThrownBy(() -> c.readItem("a1", new PartitionKey("a"), JsonNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
        assertThat(c.readAllItems(new PartitionKey("a"), JsonNode.class).stream().toList()).isEmpty();
        assertThat(ids(c, "SELECT * FROM c", null)).containsExactly("b1");
        assertThat(c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Integer.class)
                .stream().toList()).containsExactly(1);
        assertThat(drain(c, CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()),
                JsonNode.class).items()).extracting(n -> n.get("id").asText()).containsExactly("b1");

        // the same id again, before the background ran: a new item, no conflict
        assertThat(c.createItem(item("a1", "a")).getStatusCode()).isEqualTo(201);
        assertThat(ids(c, "SELECT * FROM c", new PartitionKey("a"))).containsExactly("a1");

        assertThat(removeInTheBackground()).isEqualTo(7);
        assertThat(c.readItem("a1", new PartitionKey("a"), JsonNode.class).getStatusCode()).isEqualTo(200);
        List<ChangeFeedProcessorItem> changes = drain(c, CosmosChangeFeedRequestOptions
                .createForProcessingFromContinuation(start.continuation()).allVersionsAndDeletes(),
                ChangeFeedProcessorItem.class).items();
        assertThat(changes.stream().filter(i -> i.getChangeFeedMetaData().getOperationType()
                == ChangeFeedOperationType.DELETE)).hasSize(8);
        assertThat(changes.stream().filter(i -> i.getChangeFeedMetaData().getOperationType()
                == ChangeFeedOperationType.CREATE)).hasSize(1);
    }

    @Test
    void aHierarchicalKeyNeedsEveryLevel() {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/tenantId", "/userId"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hpk", def));
        CosmosContainer c = db.getContainer("hpk");
        c.createItem(JSON.createObjectNode().put("id", "1").put("tenantId", "t1").put("userId", "u1"));
        PartitionKey partial = PartitionKey.fromObjectArray(new Object[] {"t1", Undefined.value()}, true);
        c.createItem(JSON.createObjectNode().put("id", "2").put("tenantId", "t1"), partial,
                new CosmosItemRequestOptions());

        assertThatThrownBy(() -> c.deleteAllItemsByPartitionKey(new PartitionKeyBuilder().add("t1").build(),
                new CosmosItemRequestOptions())).isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getSubStatusCode()).isEqualTo(1001);
                });
        assertThat(c.deleteAllItemsByPartitionKey(partial, new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(200);
        assertThat(ids(c, "SELECT * FROM c", null)).containsExactly("1");
        assertThat(removeInTheBackground()).isEqualTo(1);
    }
}
