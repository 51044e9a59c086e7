package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.ChangeFeedOperationType;
import com.azure.cosmos.models.ChangeFeedProcessorItem;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's materialized view: a change-feed projector keeps {@code shipmentStatus} (keyed {@code /status},
 * composite index status ascending, createdAt descending) holding one small row per shipment — shipmentId, tenantId,
 * createdAt — so "delayed shipments, newest first" is a one-partition query instead of a fan-out over the shipments.
 *
 * <p>Two feeds: the latest-version feed never reports deletes, so a deleted or TTL-expired shipment stays in the view
 * as a phantom row; the all-versions-and-deletes feed reports them and the projector removes the row. The projector
 * reads the pull model and keeps its continuation; it is caught up by calling {@link #catchUp()} (a dashboard would
 * do so on a timer, or run the same code in a change-feed processor).
 */
public final class StatusView {
    public static final String DASHBOARD =
            "SELECT * FROM c WHERE c.status = 'Delayed' ORDER BY c.createdAt DESC";

    public enum Feed { LATEST_VERSION, ALL_VERSIONS_AND_DELETES }

    /** One page of the dashboard: rows and what the query cost. */
    public record Dashboard(List<JsonNode> rows, double charge) {
    }

    private final CosmosContainer shipments;
    private final CosmosContainer view;
    private final Feed feed;
    private final Layout layout;
    private String continuation;

    /** Creates the view container and takes the feed's starting point (all-versions starts from now). */
    public StatusView(CosmosContainer shipments, Layout layout, CosmosDatabase database, String viewName, Feed feed) {
        this.shipments = shipments;
        this.layout = layout;
        this.feed = feed;
        CosmosContainerProperties p = new CosmosContainerProperties(viewName, "/status");
        p.setIndexingPolicy(policy());
        database.createContainerIfNotExists(p);
        this.view = database.getContainer(viewName);
        if (feed == Feed.ALL_VERSIONS_AND_DELETES) {
            catchUp(); // the mode has no "from the beginning": bookmark now, before the shipments it must see
        }
    }

    /** Status ascending, createdAt descending: the dashboard's ORDER BY within one status. */
    static IndexingPolicy policy() {
        IndexingPolicy p = new IndexingPolicy();
        p.setCompositeIndexes(List.of(List.of(
                new CompositePath().setPath("/status").setOrder(CompositePathSortOrder.ASCENDING),
                new CompositePath().setPath("/createdAt").setOrder(CompositePathSortOrder.DESCENDING))));
        return p;
    }

    public CosmosContainer view() {
        return view;
    }

    /** Applies every change since the last call; returns how many changes were read. */
    public int catchUp() {
        FeedRange all = FeedRange.forFullRange();
        int changes = 0;
        if (feed == Feed.ALL_VERSIONS_AND_DELETES) {
            CosmosChangeFeedRequestOptions o = continuation == null
                    ? CosmosChangeFeedRequestOptions.createForProcessingFromNow(all)
                    : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(continuation);
            for (FeedResponse<ChangeFeedProcessorItem> page : shipments.queryChangeFeed(o.allVersionsAndDeletes(),
                    ChangeFeedProcessorItem.class).iterableByPage()) {
                for (ChangeFeedProcessorItem i : page.getResults()) {
                    if (i.getChangeFeedMetaData().getOperationType() == ChangeFeedOperationType.DELETE) {
                        remove(i.toJsonNode().get("metadata").get("id").asText(), null);
                    } else {
                        project(i.getCurrent());
                    }
                    changes++;
                }
                continuation = page.getContinuationToken();
            }
        } else {
            CosmosChangeFeedRequestOptions o = continuation == null
                    ? CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(all)
                    : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(continuation);
            for (FeedResponse<JsonNode> page : shipments.queryChangeFeed(o, JsonNode.class).iterableByPage()) {
                for (JsonNode s : page.getResults()) {
                    project(s);
                    changes++;
                }
                continuation = page.getContinuationToken();
            }
        }
        return changes;
    }

    /** Upserts the shipment's row under its status and removes a row left under an earlier status. */
    private void project(JsonNode shipment) {
        String id = shipment.get("id").asText();
        String status = shipment.get("status").asText();
        remove(id, status);
        ObjectNode row = Shipment.JSON.createObjectNode();
        row.put("id", id);
        row.put("status", status);
        row.put("shipmentId", shipment.get("shipmentId").asText());
        row.put("tenantId", shipment.get("tenantId").asText());
        row.put("createdAt", shipment.get("createdAt").asText());
        view.upsertItem(row, new PartitionKey(status), new CosmosItemRequestOptions());
    }

    /** Deletes the shipment's rows, except the one under {@code keepStatus}. */
    private void remove(String id, String keepStatus) {
        SqlQuerySpec q = new SqlQuerySpec("SELECT v.id, v.status FROM v WHERE v.id = @id",
                new SqlParameter("@id", id));
        for (JsonNode row : view.queryItems(q, new CosmosQueryRequestOptions(), JsonNode.class)) {
            String status = row.get("status").asText();
            if (!status.equals(keepStatus)) {
                view.deleteItem(id, new PartitionKey(status), new CosmosItemRequestOptions());
            }
        }
    }

    /** The dashboard from the view: one partition ('Delayed'), served in order by the composite index. */
    public Dashboard dashboard() {
        return run(view, new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("Delayed")));
    }

    /** The same query on the shipments container: a fan-out over every physical partition. */
    public static Dashboard dashboardOnShipments(CosmosContainer shipments) {
        return run(shipments, new CosmosQueryRequestOptions());
    }

    private static Dashboard run(CosmosContainer c, CosmosQueryRequestOptions o) {
        List<JsonNode> rows = new ArrayList<>();
        double charge = 0;
        for (FeedResponse<JsonNode> page : c.queryItems(DASHBOARD, o, JsonNode.class).iterableByPage()) {
            rows.addAll(page.getResults());
            charge += page.getRequestCharge();
        }
        return new Dashboard(rows, charge);
    }

    public Layout layout() {
        return layout;
    }
}
