package dev.partita.examples.tracking;

import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several endpoints at once: {@code ARRAY_CONTAINS(@endpointIds, c.endpointId)} first in every query, so the
 * cross-endpoint failed search is one query and its histogram another, and neither can reach an endpoint outside the
 * set (ARRAY_CONTAINS compares whole values, never prefixes).
 */
public final class EndpointSetScope {
    static final String SCOPE = "ARRAY_CONTAINS(@endpointIds, c.endpointId)";

    private final TrackingStore store;
    private final List<String> endpointIds;

    EndpointSetScope(TrackingStore store, List<String> endpointIds) {
        if (endpointIds.isEmpty()) {
            throw new IllegalArgumentException("a set scope needs at least one endpoint id");
        }
        this.store = store;
        this.endpointIds = endpointIds;
    }

    /** The set's failed rows, newest first. */
    public Page<FailedMessage> failed(int pageSize, String continuation) {
        List<SqlParameter> params = parameters();
        params.add(new SqlParameter("@status", FailedMessage.FAILED));
        return store.page(new SqlQuerySpec("SELECT * FROM c WHERE " + SCOPE
                + " AND c.status = @status ORDER BY c.updatedAtTicks DESC", params), FailedMessage.class, pageSize,
                continuation);
    }

    /** Failed rows per endpoint of the set. */
    public Map<String, Long> failedHistogram() {
        List<SqlParameter> params = parameters();
        params.add(new SqlParameter("@status", FailedMessage.FAILED));
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode row : store.all(new SqlQuerySpec("SELECT c.endpointId, COUNT(1) AS n FROM c WHERE " + SCOPE
                + " AND c.status = @status GROUP BY c.endpointId", params), JsonNode.class)) {
            counts.put(row.path("endpointId").asText(), row.path("n").asLong());
        }
        return counts;
    }

    private List<SqlParameter> parameters() {
        List<SqlParameter> params = new ArrayList<>();
        params.add(new SqlParameter("@endpointIds", endpointIds));
        return params;
    }
}
