package dev.partita.sql.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.eval.Eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The search functions as the compiler and the planner see them. They need the document path an argument reads
 * (the policies are declared per path), so the compiler hands over the argument's path along with its compiled form.
 */
public final class SearchFunctions {
    private static final Set<String> VECTOR = Set.of("vectordistance", "_vectorscore");
    private static final Set<String> CONTAINS = Set.of("fulltextcontains", "fulltextcontainsall",
            "fulltextcontainsany");
    /** Scores that only ORDER BY RANK may use: the gateway turns them into per-partition component queries. */
    private static final Set<String> RANK_ONLY = Set.of("fulltextscore", "rrf");

    private SearchFunctions() {
    }

    /** True for the functions this package implements (any case). */
    public static boolean isSearch(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return VECTOR.contains(n) || CONTAINS.contains(n) || RANK_ONLY.contains(n)
                || n.equals("_fulltextscore") || n.equals("_fulltextwordcount");
    }

    /** True for a call an ORDER BY (or ORDER BY RANK) sorts by closeness or relevance rather than by value. */
    public static boolean isRankCall(Expr e) {
        if (!(e instanceof Expr.Call c)) {
            return false;
        }
        String n = c.name().toLowerCase(Locale.ROOT);
        return VECTOR.contains(n) || RANK_ONLY.contains(n) || n.equals("_fulltextscore");
    }

    /** True for a {@code VectorDistance} (or {@code _VectorScore}) call. */
    public static boolean isVectorCall(Expr e) {
        return e instanceof Expr.Call c && VECTOR.contains(c.name().toLowerCase(Locale.ROOT));
    }

    /** True for {@code FullTextScore} or {@code RRF}, which only the SDK's hybrid pipeline evaluates. */
    public static boolean isRankOnly(Expr e) {
        return e instanceof Expr.Call c && RANK_ONLY.contains(c.name().toLowerCase(Locale.ROOT));
    }

    /**
     * Compiles a call.
     *
     * @param args     the compiled arguments
     * @param orderKey true for an ORDER BY key: vector calls then yield closeness (larger is closer), to be sorted
     *                 descending
     */
    public static Eval compile(Expr.Call call, Eval[] args, JsonNode constantOptions, boolean orderKey) {
        String n = call.name().toLowerCase(Locale.ROOT);
        String[] paths = paths(call);
        if (VECTOR.contains(n)) {
            return VectorFunctions.compile(args, paths, constantOptions, orderKey);
        }
        if (CONTAINS.contains(n)) {
            return FullTextFunctions.contains(call.name(), args, paths, !n.equals("fulltextcontainsany"));
        }
        return switch (n) {
            case "_fulltextwordcount" -> FullTextFunctions.wordCount(args, paths);
            case "_fulltextscore" -> FullTextFunctions.score(args, paths);
            default -> throw new SqlException(call.name().toUpperCase(Locale.ROOT) + " is only valid in ORDER BY "
                    + "RANK, and a query ranked by it is run through the query plan across all partitions; send it "
                    + "through an SDK that supports hybrid search.");
        };
    }

    /** The distance function {@code ORDER BY VectorDistance(...)} sorts by for this container. */
    public static DistanceFunction distanceOf(Expr.Call vectorCall, JsonNode constantOptions, SearchPolicy policy) {
        return VectorFunctions.distanceOf(paths(vectorCall), constantOptions, policy);
    }

    /** Each argument's document path as the policies write it ({@code c.a.b} → {@code /a/b}), or null. */
    public static String[] paths(Expr.Call call) {
        String[] out = new String[call.args().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = path(call.args().get(i));
        }
        return out;
    }

    /** The path below the FROM alias an expression reads ({@code c.a["b"]} → {@code /a/b}), or null. */
    public static String path(Expr e) {
        List<String> names = new ArrayList<>();
        while (e instanceof Expr.Member m) {
            names.add(0, m.name());
            e = m.target();
        }
        if (!(e instanceof Expr.Identifier) || names.isEmpty()) {
            return null;
        }
        return "/" + String.join("/", names);
    }

    /**
     * The value of a constant written in the query (literals, object and array literals of constants, negated
     * numbers), or null when the expression is not one: what the options and weights arguments must be.
     */
    public static JsonNode constant(Expr e) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (e) {
            case Expr.Literal l -> l.value();
            case Expr.Unary u when u.op() == Expr.UnaryOp.NEGATE && constant(u.operand()) instanceof JsonNode n
                    && n.isNumber() -> f.numberNode(-n.doubleValue());
            case Expr.ObjectCtor o -> {
                ObjectNode out = f.objectNode();
                for (Expr.Property p : o.properties()) {
                    JsonNode v = constant(p.value());
                    if (v == null) {
                        yield null;
                    }
                    out.set(p.name(), v);
                }
                yield out;
            }
            case Expr.ArrayCtor a -> {
                ArrayNode out = f.arrayNode();
                for (Expr item : a.items()) {
                    JsonNode v = constant(item);
                    if (v == null) {
                        yield null;
                    }
                    out.add(v);
                }
                yield out;
            }
            default -> null;
        };
    }
}
