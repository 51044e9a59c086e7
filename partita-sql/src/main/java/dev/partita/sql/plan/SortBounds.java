package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.value.Values;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The part of the language's total order (undefined &lt; null &lt; booleans &lt; numbers &lt; strings &lt; arrays
 * &lt; objects) that a query's WHERE clause leaves possible for one property path: a superset, so an engine reading
 * the path's values in order may start and stop there and must still evaluate the query on every item.
 *
 * <p>Reads AND (intersection), OR (the hull of both sides), comparisons and BETWEEN/IN/STARTSWITH with constants or
 * parameters, the type tests ({@code IS_NUMBER}, {@code IS_DEFINED}, {@code NOT IS_DEFINED}, ...) and the literals
 * true and false; anything else leaves the whole order possible. That covers the filters the SDKs add when they resume
 * an ORDER BY query ({@code (c.n > 5 OR IS_STRING(c.n) OR IS_ARRAY(c.n) OR IS_OBJECT(c.n))}, query-plans.md §3.2),
 * which are lower or upper bounds in exactly this order.
 *
 * @param low  where the possible values start (inclusive: the engine may read a little more than needed)
 * @param high where they end (inclusive)
 */
public record SortBounds(Point low, Point high) {

    /**
     * A place in the total order: a type (the {@link Values} type order) and a value of it, or no value for the
     * type's first place (as a low bound) or last place (as a high bound).
     */
    public record Point(int type, JsonNode value) {
    }

    public static final SortBounds EVERYTHING = new SortBounds(new Point(Values.T_UNDEFINED, null),
            new Point(Values.T_OBJECT, null));

    /** True when no value can satisfy the filter. */
    public boolean isEmpty() {
        if (low.type != high.type) {
            return low.type > high.type;
        }
        // a low without a value is its type's start, a high without one its end
        return low.value != null && high.value != null && Values.compareTotal(low.value, high.value) > 0;
    }

    /** The bounds the query's WHERE clause puts on {@code path} (of the root alias). */
    public static SortBounds of(Query q, Map<String, JsonNode> params, List<String> path) {
        IndexPredicates recognizer = IndexPredicates.forQuery(q, params);
        if (recognizer == null || q.where() == null) {
            return EVERYTHING;
        }
        return new Analysis(recognizer, path).bounds(q.where());
    }

    private static SortBounds ofType(int type) {
        return new SortBounds(new Point(type, null), new Point(type, null));
    }

    private static final SortBounds EMPTY = new SortBounds(new Point(Values.T_OBJECT, null),
            new Point(Values.T_UNDEFINED, null));

    private record Analysis(IndexPredicates recognizer, List<String> path) {
        SortBounds bounds(Expr e) {
            return switch (e) {
                case Expr.Binary b when b.op() == Expr.BinaryOp.AND -> intersect(bounds(b.left()), bounds(b.right()));
                case Expr.Binary b when b.op() == Expr.BinaryOp.OR -> hull(bounds(b.left()), bounds(b.right()));
                case Expr.Unary u when u.op() == Expr.UnaryOp.NOT -> isDefined(u.operand())
                        ? ofType(Values.T_UNDEFINED) : EVERYTHING;
                case Expr.Literal l when l.value() != null && l.value().isBoolean() ->
                        l.value().booleanValue() ? EVERYTHING : EMPTY;
                case Expr.Call call when typeTest(call) != null -> typeTest(call);
                default -> leaf(e);
            };
        }

        private boolean isDefined(Expr e) {
            return e instanceof Expr.Call call && call.args().size() == 1
                    && call.name().toUpperCase(Locale.ROOT).equals("IS_DEFINED")
                    && path.equals(recognizer.path(call.args().get(0)));
        }

        private SortBounds typeTest(Expr.Call call) {
            if (call.args().size() != 1 || !path.equals(recognizer.path(call.args().get(0)))) {
                return null;
            }
            return switch (call.name().toUpperCase(Locale.ROOT)) {
                case "IS_DEFINED" -> new SortBounds(new Point(Values.T_NULL, null), new Point(Values.T_OBJECT, null));
                case "IS_NULL" -> ofType(Values.T_NULL);
                case "IS_BOOLEAN" -> ofType(Values.T_BOOLEAN);
                case "IS_NUMBER" -> ofType(Values.T_NUMBER);
                case "IS_STRING" -> ofType(Values.T_STRING);
                case "IS_ARRAY" -> ofType(Values.T_ARRAY);
                case "IS_OBJECT" -> ofType(Values.T_OBJECT);
                case "IS_PRIMITIVE" -> new SortBounds(new Point(Values.T_NULL, null),
                        new Point(Values.T_STRING, null));
                default -> null;
            };
        }

        /** A comparison, IN, BETWEEN or a string function on the path: values of the constants' type only. */
        private SortBounds leaf(Expr e) {
            IndexPredicates.Predicate p = recognizer.predicate(e);
            if (p == null || !p.path().equals(path)) {
                return EVERYTHING;
            }
            return switch (p) {
                case IndexPredicates.Equal eq -> {
                    SortBounds out = EMPTY;
                    for (JsonNode v : eq.values()) {
                        out = hull(out, new SortBounds(point(v), point(v)));
                    }
                    yield out;
                }
                case IndexPredicates.Range r -> {
                    JsonNode typed = r.low() != null ? r.low() : r.high();
                    if (r.low() != null && r.high() != null
                            && Values.typeOrder(r.low()) != Values.typeOrder(r.high())) {
                        yield EMPTY;
                    }
                    int type = Values.typeOrder(typed);
                    yield new SortBounds(r.low() != null ? point(r.low()) : new Point(type, null),
                            r.high() != null ? point(r.high()) : new Point(type, null));
                }
                case IndexPredicates.Prefix x -> new SortBounds(new Point(Values.T_STRING,
                        com.fasterxml.jackson.databind.node.TextNode.valueOf(x.prefix())), new Point(Values.T_STRING, null));
                case IndexPredicates.StringMatch m -> new SortBounds(new Point(Values.T_STRING, m.test().prefix()
                        .isEmpty() ? null : com.fasterxml.jackson.databind.node.TextNode.valueOf(m.test().prefix())),
                        new Point(Values.T_STRING, null));
            };
        }

        private static Point point(JsonNode v) {
            return new Point(Values.typeOrder(v), v);
        }
    }

    private static SortBounds intersect(SortBounds a, SortBounds b) {
        return new SortBounds(compare(a.low, b.low, true) >= 0 ? a.low : b.low,
                compare(a.high, b.high, false) <= 0 ? a.high : b.high);
    }

    private static SortBounds hull(SortBounds a, SortBounds b) {
        if (a.isEmpty()) {
            return b;
        }
        if (b.isEmpty()) {
            return a;
        }
        return new SortBounds(compare(a.low, b.low, true) <= 0 ? a.low : b.low,
                compare(a.high, b.high, false) >= 0 ? a.high : b.high);
    }

    /** Orders two lows ({@code lows}: a point without a value is its type's start) or two highs (its end). */
    private static int compare(Point a, Point b, boolean lows) {
        if (a.type != b.type) {
            return Integer.compare(a.type, b.type);
        }
        if (a.value == null || b.value == null) {
            if (a.value == null && b.value == null) {
                return 0;
            }
            // the valueless point is the type's start for lows, its end for highs
            int valueless = lows ? -1 : 1;
            return a.value == null ? valueless : -valueless;
        }
        return Integer.signum(Values.compareTotal(a.value, b.value));
    }
}
