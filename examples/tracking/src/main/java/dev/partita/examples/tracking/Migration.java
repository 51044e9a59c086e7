package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code migrate} command: copies every row of every legacy per-endpoint container into {@code unresolvedevents}
 * (upserts, low priority), verifies counts per status against the source, and records the container's high-water
 * mark in the marker. It only reads legacy containers, and a rerun converges on the same result.
 */
public final class Migration {
    private static final int PAGE = 500;

    /** What happened to one legacy container. */
    public record Outcome(String legacyContainer, String endpointId, long rows, Map<String, Long> countsByStatus,
            long highWaterTs) {
    }

    /** The copy does not match its source; nothing is marked for that container. */
    public static final class VerificationFailed extends RuntimeException {
        VerificationFailed(String container, Map<String, Long> expected, Map<String, Long> actual) {
            super("Counts per status differ for " + container + ": legacy " + expected + ", migrated " + actual);
        }
    }

    private final LegacyLayout layout;
    private final TrackingStore store;

    public Migration(LegacyLayout layout, TrackingStore store) {
        this.layout = layout;
        this.store = store;
    }

    public List<Outcome> run() {
        return layout.legacyContainers().stream().map(this::migrate).toList();
    }

    Outcome migrate(String legacyName) {
        String endpointId = layout.endpointOf(legacyName);
        CosmosContainer legacy = layout.legacy(legacyName);
        // the mark is taken first: a write that lands during the copy is past it, and the guard will notice
        long highWater = layout.highWaterMark(legacyName);
        EndpointScope scope = store.endpoint(endpointId);
        long rows = 0;
        for (FeedResponse<FailedMessage> page : legacy.queryItems("SELECT * FROM c", Priority.lowQuery(),
                FailedMessage.class).iterableByPage(PAGE)) {
            for (FailedMessage row : page.getResults()) {
                scope.copy(row);
                rows++;
            }
        }
        Map<String, Long> expected = countsByStatus(legacy);
        Map<String, Long> actual = scope.countByStatus();
        if (!expected.equals(actual)) {
            throw new VerificationFailed(legacyName, expected, actual);
        }
        layout.recordMark(legacyName, new LegacyLayout.Mark(endpointId, highWater, rows));
        return new Outcome(legacyName, endpointId, rows, expected, highWater);
    }

    private static Map<String, Long> countsByStatus(CosmosContainer legacy) {
        Map<String, Long> counts = new LinkedHashMap<>();
        legacy.queryItems("SELECT c.status, COUNT(1) AS n FROM c GROUP BY c.status", Priority.lowQuery(),
                JsonNode.class).forEach(r -> counts.put(r.path("status").asText(), r.path("n").asLong()));
        return counts;
    }
}
