package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One endpoint's rows. Point operations build the full key {@code [endpointId, id]}; every query starts with
 * {@code c.endpointId = @endpointId} — equality, so endpoint {@code orders} never sees {@code orders-eu}.
 */
public final class EndpointScope {
    static final String SCOPE = "c.endpointId = @endpointId";

    private final TrackingStore store;
    private final String endpointId;

    EndpointScope(TrackingStore store, String endpointId) {
        if (endpointId == null || endpointId.isEmpty()) {
            throw new IllegalArgumentException("an endpoint scope needs an endpoint id");
        }
        this.store = store;
        this.endpointId = endpointId;
    }

    public String endpointId() {
        return endpointId;
    }

    /** The resolver's write: high priority; the endpoint id comes from the scope, never from the row. */
    public void upsert(FailedMessage row) {
        upsertCharged(row);
    }

    /** {@link #upsert}, returning the request charge. */
    public double upsertCharged(FailedMessage row) {
        FailedMessage scoped = row.forEndpoint(endpointId);
        return store.container().upsertItem(scoped, key(scoped.id()), Priority.high()).getRequestCharge();
    }

    public Optional<FailedMessage> read(String id) {
        try {
            return Optional.of(store.container().readItem(id, key(id), Priority.low(),
                    FailedMessage.class).getItem());
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Deletes one row (low priority: a purge's work); false when it was already gone. */
    public boolean delete(String id) {
        try {
            store.container().deleteItem(id, key(id), Priority.low());
            return true;
        } catch (CosmosException e) {
            if (e.getStatusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** The endpoint's rows, newest first, optionally of one status. */
    public Page<FailedMessage> search(String status, int pageSize, String continuation) {
        List<SqlParameter> params = scopeParameters();
        String text = "SELECT * FROM c WHERE " + SCOPE;
        if (status != null) {
            text += " AND c.status = @status";
            params.add(new SqlParameter("@status", status));
        }
        text += " ORDER BY c.updatedAtTicks DESC";
        return store.page(new SqlQuerySpec(text, params), FailedMessage.class, pageSize, continuation);
    }

    /** The migration's copy of a legacy row: an upsert at low priority, so it converges when rerun. */
    void copy(FailedMessage row) {
        FailedMessage scoped = row.forEndpoint(endpointId);
        store.container().upsertItem(scoped, key(scoped.id()), Priority.low());
    }

    /** The ids of the endpoint's rows, a page at a time (what a purge walks). */
    public Page<String> ids(int pageSize, String continuation) {
        return store.page(new SqlQuerySpec("SELECT VALUE c.id FROM c WHERE " + SCOPE, scopeParameters()),
                String.class, pageSize, continuation);
    }

    /** Rows per status. */
    public Map<String, Long> countByStatus() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode row : store.all(new SqlQuerySpec("SELECT c.status, COUNT(1) AS n FROM c WHERE " + SCOPE
                + " GROUP BY c.status", scopeParameters()), JsonNode.class)) {
            counts.put(row.path("status").asText(), row.path("n").asLong());
        }
        return counts;
    }

    private List<SqlParameter> scopeParameters() {
        List<SqlParameter> params = new ArrayList<>();
        params.add(new SqlParameter("@endpointId", endpointId));
        return params;
    }

    private PartitionKey key(String id) {
        return new PartitionKeyBuilder().add(endpointId).add(id).build();
    }
}
