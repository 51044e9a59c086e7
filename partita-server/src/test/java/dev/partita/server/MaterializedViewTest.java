package dev.partita.server;

import dev.partita.core.request.RequestOptions;
import static dev.partita.server.FeedTesting.drain;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.ChangeFeedOperationType;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.server.FeedTesting.Drained;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The reason the all-versions-and-deletes feed exists: a materialized view. Orders partitioned by customer are
 * projected into a second container partitioned by product. Fed by the latest-version feed, the view never learns of
 * deleted or expired orders and goes wrong; fed by the all-versions feed, it stays equal to the source.
 */
class MaterializedViewTest extends FeedServerTest {

    MaterializedViewTest() {
        super("views");
    }

    /** Keeps a view container (keyed by /product) in step with the order container by reading its change feed. */
    static final class Projector {
        final CosmosContainer source;
        final CosmosContainer view;
        final boolean allVersions;
        String continuation;

        Projector(CosmosContainer source, CosmosContainer view, boolean allVersions) {
            this.source = source;
            this.view = view;
            this.allVersions = allVersions;
        }

        void catchUp() {
            if (allVersions) {
                CosmosChangeFeedRequestOptions o = continuation == null
                        ? CosmosChangeFeedRequestOptions.createForProcessingFromNow(FeedRange.forFullRange())
                        : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(continuation);
                Drained<ChangeFeedProcessorItem> d = drain(source, o.allVersionsAndDeletes(),
                        ChangeFeedProcessorItem.class);
                for (ChangeFeedProcessorItem i : d.items()) {
                    if (i.getChangeFeedMetaData().getOperationType() == ChangeFeedOperationType.DELETE) {
                        remove(i.toJsonNode().get("metadata").get("id").asText(), null);
                    } else {
                        project(i.getCurrent());
                    }
                }
                continuation = d.continuation();
            } else {
                CosmosChangeFeedRequestOptions o = continuation == null
                        ? CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange())
                        : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(continuation);
                Drained<ObjectNode> d = drain(source, o, ObjectNode.class);
                d.items().forEach(this::project);
                continuation = d.continuation();
            }
        }

        private void project(JsonNode order) {
            String id = order.get("id").asText();
            String product = order.get("product").asText();
            remove(id, product); // the order may have moved to another product
            view.upsertItem(JSON.createObjectNode().put("id", id).put("product", product)
                    .put("customer", order.get("customer").asText()).put("qty", order.get("qty").asInt()));
        }

        /** Deletes the view entries of an order, except the one under {@code keepProduct}. */
        private void remove(String id, String keepProduct) {
            SqlQuerySpec q = new SqlQuerySpec("SELECT * FROM v WHERE v.id = @id", new SqlParameter("@id", id));
            for (ObjectNode v : view.queryItems(q, new CosmosQueryRequestOptions(), ObjectNode.class)) {
                String product = v.get("product").asText();
                if (!product.equals(keepProduct)) {
                    view.deleteItem(id, new PartitionKey(product), new CosmosItemRequestOptions());
                }
            }
        }
    }

    private static Map<String, String> productById(CosmosContainer c) {
        Map<String, String> out = new TreeMap<>();
        for (ObjectNode n : c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)) {
            out.put(n.get("id").asText(), n.get("product").asText());
        }
        return out;
    }

    private CosmosContainer container(String name, String pk, boolean ttl) {
        CosmosContainerProperties p = new CosmosContainerProperties(name, pk);
        if (ttl) {
            p.setDefaultTimeToLiveInSeconds(-1);
        }
        db.createContainer(p, ThroughputProperties.createManualThroughput(18000));
        return db.getContainer(name);
    }

    private static ObjectNode order(int i, String product) {
        return JSON.createObjectNode().put("id", "o" + i).put("customer", "c" + (i % 5)).put("product", product)
                .put("qty", i);
    }

    @Test
    void theViewIsWrongFromTheLatestVersionFeedAndRightFromTheAllVersionsFeed() {
        CosmosContainer orders = container("orders", "/customer", true);
        Projector latest = new Projector(orders, container("view-latest", "/product", false), false);
        Projector all = new Projector(orders, container("view-all", "/product", false), true);
        all.catchUp(); // an all-versions feed starts from now: take its bookmark before the first order

        for (int i = 0; i < 20; i++) {
            orders.createItem(order(i, "p" + (i % 4)));
        }
        orders.upsertItem(order(3, "p9"));   // moves to another product
        orders.upsertItem(order(7, "p0"));
        latest.catchUp();
        all.catchUp();
        Map<String, String> source = productById(orders);
        assertThat(source).hasSize(20);
        assertThat(productById(latest.view)).isEqualTo(source);
        assertThat(productById(all.view)).isEqualTo(source);

        for (int i : new int[] {1, 6, 11}) {
            orders.deleteItem("o" + i, new PartitionKey("c" + (i % 5)), new CosmosItemRequestOptions());
        }
        orders.upsertItem(order(2, "p2").put("ttl", 10));
        orders.upsertItem(order(3, "p9").put("ttl", 10));
        clock.advance(Duration.ofSeconds(60));
        assertThat(t.engine.sweepExpired()).isEqualTo(2);

        latest.catchUp();
        all.catchUp();
        source = productById(orders);
        assertThat(source).hasSize(15);
        assertThat(productById(all.view)).as("all versions and deletes: right").isEqualTo(source);
        Map<String, String> stale = productById(latest.view);
        assertThat(stale).as("latest version: wrong").isNotEqualTo(source);
        stale.keySet().removeAll(source.keySet());
        assertThat(stale.keySet()).containsExactlyInAnyOrder("o1", "o6", "o11", "o2", "o3");
    }
}
