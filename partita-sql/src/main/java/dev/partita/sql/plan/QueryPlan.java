package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The answer to the SDK's query-plan request.
 *
 * @param queryInfo           exactly the {@code queryInfo} object of query-plans.md §1.1 (treat as read-only), or
 *                            null for a hybrid search plan
 * @param hybridSearchQueryInfo the gateway's {@code hybridSearchQueryInfo} for ORDER BY RANK FullTextScore / RRF
 *                            ({@link HybridSearchPlan}), else null
 * @param partitionKeyPoints  empty: fan out over the full range; present: the query can only match these
 *                            partition-key value tuples (components in path order; for a hierarchical key a tuple
 *                            may be a prefix, only its first levels pinned). A query that reads no items (no FROM)
 *                            gets one arbitrary full point (all nulls) so that exactly one range answers it.
 */
public record QueryPlan(ObjectNode queryInfo, ObjectNode hybridSearchQueryInfo,
                        Optional<List<List<JsonNode>>> partitionKeyPoints) {

    public QueryPlan {
        if ((queryInfo == null) == (hybridSearchQueryInfo == null)) {
            throw new IllegalArgumentException("a plan has either a queryInfo or a hybridSearchQueryInfo");
        }
        Objects.requireNonNull(partitionKeyPoints, "partitionKeyPoints");
    }

    /**
     * The whole plan response:
     * {@code {"partitionedQueryExecutionInfoVersion":2, "queryInfo":…, "queryRanges":[…]}}.
     * Each point becomes the EPK range {@code pointToEpkRange} returns for it (for a full key both ends the key's
     * EPK, both inclusive; for a prefix the prefix's range); ranges are de-duplicated and sorted by {@code min}.
     * Without points, {@code fullRange} (the caller knows the EPK bounds; this package knows no hashing).
     */
    public ObjectNode toJson(Function<List<JsonNode>, ObjectNode> pointToEpkRange, ObjectNode fullRange) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("partitionedQueryExecutionInfoVersion", 2);
        if (queryInfo != null) {
            out.set("queryInfo", queryInfo.deepCopy());
        } else {
            out.set("hybridSearchQueryInfo", hybridSearchQueryInfo.deepCopy());
        }
        ArrayNode ranges = out.putArray("queryRanges");
        if (partitionKeyPoints.isEmpty() || partitionKeyPoints.get().isEmpty()) {
            ranges.add(fullRange.deepCopy()); // never an empty list: the SDK fails on it (§1.3)
            return out;
        }
        Map<String, ObjectNode> unique = new LinkedHashMap<>();
        for (List<JsonNode> point : partitionKeyPoints.get()) {
            ObjectNode r = pointToEpkRange.apply(point);
            unique.putIfAbsent(r.path("min").asText() + "\u0000" + r.path("max").asText(), r);
        }
        List<ObjectNode> sorted = new ArrayList<>(unique.values());
        sorted.sort(Comparator.comparing(r -> r.path("min").asText()));
        sorted.forEach(ranges::add);
        return out;
    }

    /** An EPK range object as the SDK reads it. */
    public static ObjectNode range(String min, String max, boolean minInclusive, boolean maxInclusive) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        r.put("min", min);
        r.put("max", max);
        r.put("isMinInclusive", minInclusive);
        r.put("isMaxInclusive", maxInclusive);
        return r;
    }
}
