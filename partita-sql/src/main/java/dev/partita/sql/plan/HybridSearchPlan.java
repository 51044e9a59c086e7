package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.search.SearchFunctions;
import dev.partita.sql.search.SearchPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The plan of {@code ORDER BY RANK FullTextScore(...)} and {@code ORDER BY RANK RRF(...)}: the gateway's
 * {@code hybridSearchQueryInfo}. The SDK first runs {@code globalStatisticsQuery} on every partition and adds up the
 * document count, and per full-text component the total word count and one hit count per term; it writes those into
 * each component query's placeholders, runs every component query (a non-streaming ORDER BY over all partitions),
 * merges the rows by {@code _rid}, ranks each component's scores and orders the items by
 * {@code sum(weight / (60 + rank))}, then applies {@code skip} and {@code take}.
 * <p>
 * Shapes from the gateway's plans as the .NET SDK's tests record them: component texts
 * {@code SELECT TOP n c._rid, [{"item": score}] AS orderByItems, {"payload": <projection>, "componentScores":
 * [all scores]} AS payload FROM c WHERE (<filter>) ORDER BY score DESC}, full-text scores as
 * {@code _FullTextScore(path, [terms], {…totaldocumentcount}, {…totalwordcount-i}, {…hitcountsarray-i})}, vector
 * scores as {@code _VectorScore(...)}. Each component keeps {@link #COMPONENT_TOP_FACTOR} times the rows the query
 * returns (10 → 120 in the recorded plans).
 */
final class HybridSearchPlan {
    static final long COMPONENT_TOP_FACTOR = 12;
    private static final String DOCUMENT_COUNT = "{documentdb-formattablehybridsearchquery-totaldocumentcount}";

    private final Query q;
    private final SearchPolicy policy;
    private final String root;

    private HybridSearchPlan(Query q, SearchPolicy policy) {
        this.q = q;
        this.policy = policy;
        this.root = q.from().get(0).alias();
    }

    /** True when the query ranks by full-text relevance or by rank fusion (the hybrid pipeline). */
    static boolean applies(Query q) {
        return q.orderBy().size() == 1 && SearchFunctions.isRankOnly(q.orderBy().get(0).expr());
    }

    static ObjectNode plan(Query q, SearchPolicy policy, Long top, Long offset, Long limit) {
        return new HybridSearchPlan(q, policy).build(top, offset, limit);
    }

    private ObjectNode build(Long top, Long offset, Long limit) {
        if (q.selection() instanceof Query.Selection.Value || q.distinct() || !q.groupBy().isEmpty()
                || q.from().size() != 1) {
            throw new SqlException("ORDER BY RANK supports SELECT * or a list of properties over one FROM source, "
                    + "without VALUE, DISTINCT, GROUP BY or JOIN.");
        }
        Expr.Call rank = (Expr.Call) q.orderBy().get(0).expr();
        List<Expr.Call> components = new ArrayList<>();
        JsonNode weights = null;
        if (rank.name().equalsIgnoreCase("rrf")) {
            for (Expr arg : rank.args()) {
                if (arg instanceof Expr.ArrayCtor) {
                    weights = weights(arg, rank.args().size() - 1);
                } else if (arg instanceof Expr.Call c && (SearchFunctions.isVectorCall(c)
                        || c.name().equalsIgnoreCase("fulltextscore"))) {
                    components.add(c);
                } else {
                    throw new SqlException("RRF takes FullTextScore and VectorDistance calls, and optionally an "
                            + "array of weights as its last argument.");
                }
            }
            if (components.size() < 2) {
                throw new SqlException("RRF needs at least two scoring functions.");
            }
        } else {
            components.add(rank);
        }
        // an unbounded query (the JS SDK's allowUnboundedNonStreamingQueries, checked by the SDK alone) has no take and
        // its component queries no TOP
        Long take = top != null && limit != null ? Long.valueOf(Math.min(top, limit)) : top != null ? top : limit;
        long skip = offset == null ? 0 : offset;
        Long componentTop = take == null ? null : (skip + take) * COMPONENT_TOP_FACTOR;

        List<String> scores = new ArrayList<>();
        List<String> statistics = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            Expr.Call c = components.get(i);
            if (SearchFunctions.isVectorCall(c)) {
                scores.add("_VectorScore(" + Printer.list(c.args()) + ")");
                descending.add(SearchFunctions.distanceOf(c, vectorOptions(c), policy).higherIsCloser());
            } else {
                scores.add(fullTextScore(c, i));
                statistics.add(statistics(c));
                descending.add(true);
            }
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        out.put("globalStatisticsQuery", "SELECT COUNT(1) AS documentCount, [" + String.join(", ", statistics)
                + "] AS fullTextStatistics\nFROM " + root);
        ArrayNode infos = out.putArray("componentQueryInfos");
        // a document without a vector has no score there, yet keeps its place in componentScores (the SDKs rank by
        // position): null, which ties every such document
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            kept.add(SearchFunctions.isVectorCall(components.get(i)) ? "(" + scores.get(i) + " ?? null)" : scores.get(i));
        }
        String payload = "{\"payload\": " + projection() + ", \"componentScores\": [" + String.join(", ", kept)
                + "]}";
        for (int i = 0; i < components.size(); i++) {
            infos.add(component(scores.get(i), descending.get(i), payload, componentTop));
        }
        if (weights != null) {
            out.set("componentWeights", weights);
        }
        out.putArray("componentWithoutPayloadQueryInfos");
        out.putNull("projectionQueryInfo");
        if (offset == null) {
            out.putNull("skip");
        } else {
            out.put("skip", skip);
        }
        if (take == null) {
            out.putNull("take");
        } else {
            out.put("take", take);
        }
        out.put("requiresGlobalStatistics", !statistics.isEmpty());
        return out;
    }

    private ObjectNode component(String score, boolean descending, String payload, Long top) {
        QueryInfoBuilder info = new QueryInfoBuilder();
        info.top = top;
        info.orderBy.add(descending ? "Descending" : "Ascending");
        info.orderByExpressions.add(score);
        info.hasNonStreamingOrderBy = true;
        String filter = "(" + Rewriter.ORDER_BY_FILTER + ")";
        String where = q.where() == null ? filter : Printer.expr(q.where()) + " AND " + filter;
        List<String> lines = new ArrayList<>();
        lines.add("SELECT " + (top == null ? "" : "TOP " + top + " ") + root + "._rid, [{\"item\": " + score
                + "}] AS orderByItems, " + payload + " AS payload");
        lines.addAll(Printer.from(q));
        lines.add("WHERE " + where);
        lines.add("ORDER BY " + score + (descending ? " DESC" : " ASC"));
        info.rewrittenQuery = String.join("\n", lines);
        return info.toJson();
    }

    private String projection() {
        return q.selection() instanceof Query.Selection.Items items ? "{" + Rewriter.objectItems(items) + "}" : root;
    }

    private String fullTextScore(Expr.Call c, int index) {
        List<Expr> terms = terms(c);
        return "_FullTextScore(" + Printer.expr(c.args().get(0)) + ", [" + Printer.list(terms) + "], "
                + DOCUMENT_COUNT + ", {documentdb-formattablehybridsearchquery-totalwordcount-" + index + "}, "
                + "{documentdb-formattablehybridsearchquery-hitcountsarray-" + index + "})";
    }

    private String statistics(Expr.Call c) {
        String path = Printer.expr(c.args().get(0));
        List<String> hits = new ArrayList<>();
        for (Expr t : terms(c)) {
            hits.add("COUNTIF(FullTextContains(" + path + ", " + Printer.expr(t) + "))");
        }
        return "{\"totalWordCount\": SUM(_FullTextWordCount(" + path + ")), \"hitCounts\": [" + String.join(", ", hits)
                + "]}";
    }

    /** FullTextScore(path, t1, t2, ...) or FullTextScore(path, [t1, t2, ...]). */
    private static List<Expr> terms(Expr.Call c) {
        if (c.args().size() < 2 || SearchFunctions.path(c.args().get(0)) == null) {
            throw new SqlException("FullTextScore takes a property path and at least one search term.");
        }
        if (c.args().size() == 2 && c.args().get(1) instanceof Expr.ArrayCtor a) {
            return a.items();
        }
        return c.args().subList(1, c.args().size());
    }

    static JsonNode vectorOptions(Expr.Call c) {
        return c.args().size() == 4 ? SearchFunctions.constant(c.args().get(3)) : null;
    }

    private static JsonNode weights(Expr arg, int components) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        List<JsonNode> values = new ArrayList<>();
        for (Expr e : ((Expr.ArrayCtor) arg).items()) {
            values.add(SearchFunctions.constant(e));
        }
        for (JsonNode v : values) {
            if (v == null || !v.isNumber()) {
                throw new SqlException("The weights of RRF must be an array of numbers.");
            }
            out.add(v.doubleValue());
        }
        if (out.size() != components) {
            throw new SqlException(String.format(Locale.ROOT, "RRF has %d scoring functions but %d weights; give "
                    + "one weight per scoring function.", components, out.size()));
        }
        return out;
    }
}
