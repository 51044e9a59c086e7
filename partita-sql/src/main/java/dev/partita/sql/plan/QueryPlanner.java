package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.parse.Validator;
import dev.partita.sql.search.SearchFunctions;
import dev.partita.sql.search.SearchPolicy;
import dev.partita.sql.value.Num;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Computes the plan the SDK asks for before running a query (query-plans.md): which client-side pipeline to build
 * ({@code queryInfo}), what text each range runs ({@code rewrittenQuery}), and which partition keys the query can
 * touch. Stateless and thread-safe.
 * <p>
 * For the engine serving the ranges: run whatever text the SDK sends with {@link SqlQuery#execute} over the range's
 * (or the partition's) items, with the request's parameters. The SDK has replaced the ORDER BY placeholder by
 * {@code true} or by a resume filter this module evaluates; ties of ORDER BY come out in {@code _rid} order, as the
 * SDK's resume requires; aggregate texts yield one partial row even over no items. Parameterized TOP/OFFSET/LIMIT
 * must be passed to {@code plan} since the plan carries their values.
 */
public final class QueryPlanner {
    /** The features header of the Java SDK 4.81 ({@code x-ms-cosmos-supported-query-features}). */
    public static final Set<String> JAVA_SDK_FEATURES = Set.of("Aggregate", "CompositeAggregate", "MultipleOrderBy",
            "MultipleAggregates", "OrderBy", "OffsetAndLimit", "Distinct", "GroupBy", "Top", "DCount",
            "NonValueAggregate", "NonStreamingOrderBy", "HybridSearch", "WeightedRankFusion");

    private static final long MAX_COUNT = 4294967295L;

    private final Query q;
    private final Map<String, JsonNode> params;
    private final SearchPolicy search;
    private final QueryInfoBuilder info = new QueryInfoBuilder();

    private QueryPlanner(Query q, Map<String, JsonNode> params, SearchPolicy search) {
        this.q = q;
        this.params = params == null ? Map.of() : params;
        this.search = search;
    }

    /** The plan for a client that supports what the Java SDK 4.81 supports. */
    public static QueryPlan plan(SqlQuery query, List<String> partitionKeyPaths, Map<String, JsonNode> params) {
        return plan(query, partitionKeyPaths, params, JAVA_SDK_FEATURES);
    }

    /**
     * The plan for a client whose {@code x-ms-cosmos-supported-query-features} header lists {@code supportedFeatures}.
     *
     * @param partitionKeyPaths the container's partition key paths ({@code ["/pk"]}, {@code ["/tenant", "/user"]})
     * @param params            the request's parameters by name with {@code @}; TOP/OFFSET/LIMIT parameters and
     *                          parameters compared with the partition key are read
     * @throws SqlException (a 400 for the service) when the query needs a feature the client lacks, composes
     *                      aggregates with other expressions, or cannot be split over partitions
     */
    public static QueryPlan plan(SqlQuery query, List<String> partitionKeyPaths, Map<String, JsonNode> params,
                                 Set<String> supportedFeatures) {
        return plan(query, partitionKeyPaths, params, supportedFeatures, SearchPolicy.NONE);
    }

    /**
     * As {@link #plan(SqlQuery, List, Map, Set)} for a container with vector and full-text policies: the direction of
     * a vector ORDER BY is its distance function's, which the container's embedding policy may set.
     */
    public static QueryPlan plan(SqlQuery query, List<String> partitionKeyPaths, Map<String, JsonNode> params,
                                 Set<String> supportedFeatures, SearchPolicy search) {
        return new QueryPlanner(query.ast(), params, search).plan(List.copyOf(partitionKeyPaths), supportedFeatures);
    }

    private QueryPlan plan(List<String> paths, Set<String> supported) {
        Query inner = dcountInner(q);
        checkFeatures(inner, supported);
        // a query that reads no items would return its rows once per range: send it to one (any) partition
        Optional<List<List<JsonNode>>> points = readsContainer(q) || paths.isEmpty()
                ? PartitionKeyFilter.points(q, paths, params)
                : Optional.of(List.of(Collections.nCopies(paths.size(), (JsonNode) NullNode.instance)));
        boolean onePartition = points.isPresent() && points.get().size() == 1
                && points.get().get(0).size() == paths.size();
        info.hasSelectValue = q.selection() instanceof Query.Selection.Value;
        if (HybridSearchPlan.applies(q)) {
            return new QueryPlan(null, HybridSearchPlan.plan(q, search, count(q.top()), count(q.offset()),
                    count(q.limit())), points);
        }
        if (inner != null) {
            dcount(inner);
        } else if (!rowLocal(q) && onePartition) {
            // one logical partition lives in one range, which runs the query as written
        } else {
            // a FROM subquery with DISTINCT, TOP, OFFSET/LIMIT, GROUP BY or an aggregate runs in each range, as the
            // service runs it: the Java SDK's DistinctQueryTests sends SELECT ... FROM (SELECT DISTINCT * FROM r) p
            // across partitions and expects its rows
            shape(onePartition);
        }
        return new QueryPlan(info.toJson(), null, points);
    }

    private void shape(boolean onePartition) {
        List<SelectList.Column> columns = SelectList.columns(q);
        String valueOperator = SelectList.valueOperator(q);
        boolean aggregates = valueOperator != null || columns.stream().anyMatch(c -> c.operator() != null);
        boolean grouped = !q.groupBy().isEmpty();
        Long top = count(q.top());
        Long offset = count(q.offset());
        Long limit = count(q.limit());
        info.top = top;
        if (q.orderBy().stream().anyMatch(o -> SearchFunctions.isVectorCall(o.expr()))) {
            vectorOrderBy(top, offset, limit);
            return;
        }
        if (onePartition && !aggregates && !grouped && !q.distinct()) {
            return; // the real planner leaves ORDER BY and OFFSET/LIMIT to the one range holding the partition
        }
        info.offset = offset;
        info.limit = limit;
        if (grouped) {
            groupBy(columns, valueOperator);
        } else if (aggregates) {
            aggregate(columns, valueOperator);
        } else if (!q.orderBy().isEmpty()) {
            orderBy(top, offset, limit);
        } else if (q.distinct()) {
            info.distinctType = "Unordered";
            if (top != null || offset != null) {
                info.rewrittenQuery = Rewriter.withoutPaging(q);
            }
        } else if (offset != null) {
            info.rewrittenQuery = Rewriter.offsetLimit(q, offset + rowsAfterOffset(top, limit));
        }
    }

    private void orderBy(Long top, Long offset, Long limit) {
        for (Query.OrderItem o : q.orderBy()) {
            info.orderBy.add(o.descending() ? "Descending" : "Ascending");
            info.orderByExpressions.add(Printer.expr(o.expr()));
        }
        if (q.distinct()) {
            info.distinctType = payloadDeterminesKeys() ? "Ordered" : "Unordered";
            // a range's first rows may be duplicates of each other: it must return them all
            info.rewrittenQuery = Rewriter.orderBy(q, null, null);
        } else {
            // with OFFSET, TOP counts rows after the offset like LIMIT does: fold it into the per-range LIMIT
            info.rewrittenQuery = offset == null ? Rewriter.orderBy(q, top, null)
                    : Rewriter.orderBy(q, null, offset + rowsAfterOffset(top, limit));
        }
    }

    /**
     * ORDER BY VectorDistance: a non-streaming ORDER BY. Each range returns its own best rows (TOP, or OFFSET+LIMIT)
     * and the SDK keeps the best of all of them; the query has no continuation. Without a bound it is planned all
     * the same, as the service plans it, and each SDK refuses it itself (the JS SDK runs it when told to buffer every
     * row). The direction is the distance function's: most similar first (descending for similarities, ascending
     * for Euclidean).
     */
    private void vectorOrderBy(Long top, Long offset, Long limit) {
        if (aggregatesOrGroups()) {
            throw new SqlException("ORDER BY VectorDistance cannot be combined with aggregates or GROUP BY.");
        }
        info.offset = offset;
        info.limit = limit;
        for (Query.OrderItem o : q.orderBy()) {
            boolean descending = o.descending();
            if (SearchFunctions.isVectorCall(o.expr())) {
                Expr.Call call = (Expr.Call) o.expr();
                descending = SearchFunctions.distanceOf(call, HybridSearchPlan.vectorOptions(call), search)
                        .higherIsCloser();
            }
            info.orderBy.add(descending ? "Descending" : "Ascending");
            info.orderByExpressions.add(Printer.expr(o.expr()));
        }
        info.hasNonStreamingOrderBy = true;
        if (q.distinct()) {
            info.distinctType = "Ordered";
        }
        info.rewrittenQuery = offset == null ? Rewriter.orderBy(q, top, null)
                : Rewriter.orderBy(q, null, offset + rowsAfterOffset(top, limit));
    }

    private boolean aggregatesOrGroups() {
        return !q.groupBy().isEmpty() || SelectList.valueOperator(q) != null
                || SelectList.columns(q).stream().anyMatch(c -> c.operator() != null);
    }

    /**
     * "Ordered" DISTINCT drops only consecutive duplicates, which is enough when equal rows have equal sort keys
     * and rows with equal keys are equal: the projection and the ORDER BY expressions are the same values.
     */
    private boolean payloadDeterminesKeys() {
        Set<Expr> keys = new HashSet<>();
        q.orderBy().forEach(o -> keys.add(o.expr()));
        return switch (q.selection()) {
            case Query.Selection.Star s -> true; // whole items are never equal (distinct _rid)
            case Query.Selection.Value v -> keys.equals(Set.of(v.expr()));
            case Query.Selection.Items items -> {
                Set<Expr> projected = new HashSet<>();
                items.items().forEach(i -> projected.add(i.expr()));
                yield keys.equals(projected);
            }
        };
    }

    private void aggregate(List<SelectList.Column> columns, String valueOperator) {
        if (valueOperator != null) {
            info.aggregates.add(valueOperator);
        } else {
            aliases(columns);
        }
        if (q.distinct()) {
            info.distinctType = "Unordered";
        }
        info.rewrittenQuery = Rewriter.aggregate(q);
    }

    private void groupBy(List<SelectList.Column> columns, String valueOperator) {
        for (Expr k : q.groupBy()) {
            info.groupByExpressions.add(Printer.expr(k));
        }
        if (valueOperator != null) {
            info.aggregates.add(valueOperator);
        } else if (!(q.selection() instanceof Query.Selection.Value)) {
            aliases(columns);
        }
        if (q.distinct() && !groupsAreDistinct()) {
            // the SDK would apply DISTINCT to each range's partial groups, before merging them
            throw new SqlException("DISTINCT over GROUP BY results is not supported across partitions unless every "
                    + "GROUP BY expression is selected; select the grouping expressions, or filter on the whole "
                    + "partition key.");
        }
        info.rewrittenQuery = Rewriter.groupBy(q);
    }

    /** True when each group yields a different row anyway, so DISTINCT has nothing to remove. */
    private boolean groupsAreDistinct() {
        Set<Expr> projected = new HashSet<>();
        if (q.selection() instanceof Query.Selection.Value v) {
            projected.add(v.expr());
        } else if (q.selection() instanceof Query.Selection.Items items) {
            items.items().forEach(i -> projected.add(i.expr()));
        }
        return projected.containsAll(q.groupBy());
    }

    private void aliases(List<SelectList.Column> columns) {
        for (SelectList.Column c : columns) {
            info.groupByAliases.add(c.alias());
            info.groupByAliasToAggregateType.put(c.alias(), c.operator());
        }
    }

    private void dcount(Query inner) {
        info.distinctType = "Unordered";
        info.top = count(q.top());
        info.offset = count(q.offset());
        info.limit = count(q.limit());
        String alias = q.selection() instanceof Query.Selection.Items items ? items.items().get(0).alias() : null;
        info.dCountAlias = alias == null ? "" : alias;
        info.rewrittenQuery = Rewriter.dcountInner(inner);
    }

    /**
     * The DISTINCT subquery of {@code SELECT [VALUE] COUNT(x) [AS a] FROM (SELECT DISTINCT ...) [s]} (x a constant or
     * the subquery's alias; no WHERE, JOIN, GROUP BY or ORDER BY outside), or null when the query is not a DCOUNT.
     */
    private static Query dcountInner(Query q) {
        if (q.from().size() != 1 || q.where() != null || !q.groupBy().isEmpty() || !q.orderBy().isEmpty()
                || !(q.from().get(0).collection() instanceof Query.Collection.SubqueryCollection sq)) {
            return null;
        }
        Query inner = sq.query();
        if (!inner.distinct() || inner.top() != null || inner.offset() != null || !inner.groupBy().isEmpty()
                || Validator.hasAggregates(inner) || !rowLocal(inner) || !readsContainer(inner)) {
            return null;
        }
        Expr e = switch (q.selection()) {
            case Query.Selection.Value v -> v.expr();
            case Query.Selection.Items items when items.items().size() == 1 -> items.items().get(0).expr();
            default -> null;
        };
        if (!(e instanceof Expr.Call c) || !c.name().equalsIgnoreCase("count") || c.args().size() != 1) {
            return null;
        }
        Expr arg = c.args().get(0);
        boolean countsRows = arg instanceof Expr.Literal l && l.value() != null
                || arg instanceof Expr.Identifier id && id.name().equals(q.from().get(0).alias());
        return countsRows ? inner : null;
    }

    /** True when the rows come from the container's items (through FROM subqueries too), not from constants. */
    private static boolean readsContainer(Query q) {
        if (q.from().isEmpty()) {
            return false;
        }
        return !(q.from().get(0).collection() instanceof Query.Collection.SubqueryCollection sq)
                || readsContainer(sq.query());
    }

    /** True when every FROM subquery yields its rows item by item, so running it per range loses nothing. */
    private static boolean rowLocal(Query q) {
        if (q.from().isEmpty() || !(q.from().get(0).collection() instanceof Query.Collection.SubqueryCollection sq)) {
            return true;
        }
        Query s = sq.query();
        return !s.distinct() && s.top() == null && s.offset() == null && s.groupBy().isEmpty()
                && !Validator.hasAggregates(s) && rowLocal(s);
    }

    /** Rejects the query when it needs a feature the client did not list (query-plans.md §4.1). */
    private void checkFeatures(Query inner, Set<String> supported) {
        Set<String> needed = new LinkedHashSet<>();
        List<String> operators = new ArrayList<>();
        if (inner != null) {
            needed.add("DCount");
        } else {
            String v = SelectList.valueOperator(q);
            if (v != null) {
                operators.add(v);
            }
            for (SelectList.Column c : SelectList.columns(q)) {
                if (c.operator() != null) {
                    operators.add(c.operator());
                    needed.add("NonValueAggregate");
                }
            }
        }
        if (!operators.isEmpty()) {
            needed.add("Aggregate");
        }
        if (operators.size() > 1) {
            needed.add("MultipleAggregates");
        }
        if (operators.contains("MakeList") || operators.contains("MakeSet")) {
            needed.add("ListAndSetAggregate");
        }
        if (operators.contains("CountIf")) {
            needed.add("CountIf");
        }
        if (q.distinct()) {
            needed.add("Distinct");
        }
        if (!q.groupBy().isEmpty()) {
            needed.add("GroupBy");
        }
        if (q.top() != null) {
            needed.add("Top");
        }
        if (q.offset() != null) {
            needed.add("OffsetAndLimit");
        }
        if (HybridSearchPlan.applies(q)) {
            needed.add("HybridSearch");
            Expr rank = q.orderBy().get(0).expr();
            if (rank instanceof Expr.Call c && c.args().stream().anyMatch(a -> a instanceof Expr.ArrayCtor)) {
                needed.add("WeightedRankFusion");
            }
        } else if (!q.orderBy().isEmpty()) {
            needed.add(q.orderBy().size() > 1 ? "MultipleOrderBy" : "OrderBy");
            if (q.orderBy().stream().anyMatch(o -> SearchFunctions.isVectorCall(o.expr()))) {
                needed.add("NonStreamingOrderBy");
            }
        }
        List<String> lines = new ArrayList<>();
        for (String feature : needed) {
            if (!supported.contains(feature)) {
                lines.add("Query contained " + feature + ", which the calling client does not support.");
            }
        }
        if (!lines.isEmpty()) {
            throw new SqlException("Query contains 1 or more unsupported features. Upgrade your SDK to a version "
                    + "that does support the requested features:\r\n" + String.join("\r\n", lines));
        }
    }

    private static long rowsAfterOffset(Long top, long limit) {
        return top == null ? limit : Math.min(top, limit);
    }

    /** A TOP/OFFSET/LIMIT value with its parameter resolved, or null when absent. */
    private Long count(Query.Count c) {
        if (c == null) {
            return null;
        }
        if (c instanceof Query.Count.Constant k) {
            return k.value();
        }
        String name = ((Query.Count.Parameter) c).name();
        if (!params.containsKey(name)) {
            throw new SqlException("The query references the parameter " + name + " but no value was supplied for it.");
        }
        JsonNode v = params.get(name);
        if (v == null || !Num.isInteger(v) || Num.longValue(v) < 0) {
            throw new SqlException("SC2060", "The count value provided for a TOP, OFFSET or LIMIT clause must be a "
                    + "non-negative integer.");
        }
        long n = Num.longValue(v);
        if (n > MAX_COUNT) {
            throw new SqlException("SC2060", "The count value provided for a TOP, OFFSET or LIMIT clause exceeds the "
                    + "maximum allowed value.");
        }
        return n;
    }
}
