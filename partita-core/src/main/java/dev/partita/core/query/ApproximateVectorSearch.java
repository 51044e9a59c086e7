package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Work;
import dev.partita.core.index.vector.VectorIndexes;
import dev.partita.core.index.vector.VectorIndexType;
import dev.partita.core.index.vector.VectorPolicy;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.search.SearchFunctions;
import dev.partita.sql.search.VectorEmbedding;
import dev.partita.core.item.PartitionDeletes;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Snapshot;
import java.util.List;
import java.util.Map;

/**
 * {@code SELECT TOP k ... ORDER BY VectorDistance(c.path, <vector>)} over a {@code quantizedFlat} or {@code diskANN}
 * path: the graph proposes {@code k} times the search-list multiplier candidates within the scope, and the query runs
 * over just those items as stored in the snapshot (filter and exact scores included). Exact instead when the call
 * asks for brute force, when the index holds fewer vectors than the service needs before it uses one, or when the
 * filter leaves fewer than {@code k} candidates though more items might match.
 */
final class ApproximateVectorSearch {
    /** The service uses a quantizedFlat or diskANN index once it holds about 1,000 vectors (full scan before). */
    static final long MIN_INDEXED_VECTORS = 1000;
    /** Defaults of the options {@code searchListSizeMultiplier} (diskANN) and {@code quantizedVectorListMultiplier}. */
    static final int DISKANN_MULTIPLIER = 10;
    static final int QUANTIZED_MULTIPLIER = 5;

    private ApproximateVectorSearch() {
    }

    /**
     * The page, or null when the query is not an approximate vector search or should run exactly (as while the
     * graph's build takes more requests: {@link VectorIndexes#nearest}).
     */
    static QueryPage run(VectorIndexes indexes, Snapshot snapshot, ContainerInfo c, SqlQuery query,
            QueryExecutor.Bounds bounds, Map<String, JsonNode> params, EvalContext context, long nowSeconds,
            Deadline deadline) {
        Query q = query.ast();
        if (q.orderBy().size() != 1 || !SearchFunctions.isVectorCall(q.orderBy().get(0).expr()) || q.distinct()
                || !q.groupBy().isEmpty() || query.hasAggregates() || q.from().size() != 1
                || !(q.from().get(0).collection() instanceof Query.Collection.Path)) {
            return null;
        }
        Expr.Call call = (Expr.Call) q.orderBy().get(0).expr();
        String path = SearchFunctions.path(call.args().get(0));
        VectorPolicy.VectorIndex index = path == null ? null : c.search().vectors().index(path);
        VectorEmbedding embedding = path == null ? null : c.search().embedding(path);
        Long k = rowsWanted(q, params);
        if (index == null || !index.type().approximate() || k == null || k <= 0 || bruteForce(call)) {
            return null;
        }
        JsonNode options = call.args().size() == 4 ? SearchFunctions.constant(call.args().get(3)) : null;
        if (options != null && options.has("distanceFunction") && !options.path("distanceFunction").asText("")
                .equalsIgnoreCase(embedding.distance().policyName())) {
            return null; // the graph is ordered by the policy's function only
        }
        float[] vector = vector(call.args().get(1), params, embedding);
        if (vector == null) {
            return null;
        }
        int multiplier = multiplier(index.type(), options);
        int wanted = (int) Math.min(Integer.MAX_VALUE / multiplier, k) * multiplier;
        VectorIndexes.Candidates candidates = indexes.nearest(c, snapshot, path, vector, wanted, bounds.from(),
                bounds.to(), deadline);
        if (candidates == null || candidates.indexed() < MIN_INDEXED_VECTORS) {
            return null;
        }
        try (ItemSource source = KeySetSource.ofKeys(snapshot, candidates.keys(), candidates.keys().size(),
                new Visibility(nowSeconds, PartitionDeletes.load(snapshot, c.containerId())))) {
            List<JsonNode> rows = query.execute(source, params, context);
            if (rows.size() < k && candidates.keys().size() >= wanted) {
                return null; // the filter is more selective than the candidate list is long
            }
            return new QueryPage(rows, null, bounds.rangeId(), Work.scan(Work.Operation.QUERY, source.entriesRead,
                    source.items, source.bytes, rows.size(), Rows.bytes(rows)));
        }
    }

    /** TOP, or OFFSET + LIMIT: how many rows of the order the query can return. */
    private static Long rowsWanted(Query q, Map<String, JsonNode> params) {
        Long top = count(q.top(), params);
        if (q.limit() == null) {
            return top;
        }
        Long offset = count(q.offset(), params);
        Long limit = count(q.limit(), params);
        if (offset == null || limit == null) {
            return null;
        }
        return top == null ? offset + limit : Math.min(top, offset + limit);
    }

    private static Long count(Query.Count c, Map<String, JsonNode> params) {
        if (c instanceof Query.Count.Constant k) {
            return k.value();
        }
        if (c instanceof Query.Count.Parameter p && params != null && params.get(p.name()) != null
                && params.get(p.name()).canConvertToLong()) {
            return params.get(p.name()).longValue();
        }
        return null;
    }

    private static boolean bruteForce(Expr.Call call) {
        if (call.args().size() < 3) {
            return false;
        }
        JsonNode v = SearchFunctions.constant(call.args().get(2));
        return v == null || !v.isBoolean() || v.booleanValue(); // an expression: evaluate exactly
    }

    private static int multiplier(VectorIndexType type, JsonNode options) {
        String name = type == VectorIndexType.DISKANN ? "searchListSizeMultiplier" : "quantizedVectorListMultiplier";
        JsonNode m = options == null ? null : options.get(name);
        return m != null && m.canConvertToInt() && m.intValue() >= 1
                ? m.intValue() : type == VectorIndexType.DISKANN ? DISKANN_MULTIPLIER : QUANTIZED_MULTIPLIER;
    }

    private static float[] vector(Expr e, Map<String, JsonNode> params, VectorEmbedding embedding) {
        JsonNode v = e instanceof Expr.Param p ? (params == null ? null : params.get(p.name()))
                : SearchFunctions.constant(e);
        return embedding.vectorOf(v);
    }
}
