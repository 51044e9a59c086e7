package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The index-answerable ("sargable") conjuncts of a query's WHERE clause: comparisons of a property path of the root
 * alias with a primitive constant or parameter ({@code c.a.b = 1}, {@code IN (...)}, {@code <, <=, >, >=},
 * {@code BETWEEN}, case-sensitive {@code STARTSWITH}) and string functions of a path with constant other arguments
 * ({@code CONTAINS}, {@code STARTSWITH}, {@code ENDSWITH}, {@code RegexMatch}, {@code LIKE}). Each predicate describes a superset of the items the conjunct
 * accepts, so an engine may fetch candidates through an index and must still evaluate the whole query on them.
 *
 * <p>Like {@link PartitionKeyFilter} this reads only the top-level AND chain of the query that reads the container,
 * and only when the first FROM source is the container itself ({@code FROM c}, not {@code FROM c IN c.x} nor
 * {@code FROM c.children}); a conjunct on the root alias stays a valid item filter under JOINs, because it is false for
 * every joined row of an item it rejects. Depends on nothing but the AST and the value rules.
 */
public final class IndexPredicates {

    /** A predicate on one path (property names from the root, in order). */
    public sealed interface Predicate {
        List<String> path();
    }

    /** The path equals one of {@code values} (one value for {@code =}, several for {@code IN}). */
    public record Equal(List<String> path, List<JsonNode> values) implements Predicate {
        public Equal {
            path = List.copyOf(path);
            values = List.copyOf(values);
        }
    }

    /**
     * The path lies between {@code low} and {@code high} (either may be Java null for an open end; the flags say
     * whether a bound itself matches). A value only compares with values of its own type, so the candidates are of
     * the bounds' type; bounds of two different types match nothing.
     */
    public record Range(List<String> path, JsonNode low, boolean lowInclusive, JsonNode high, boolean highInclusive)
            implements Predicate {
        public Range {
            path = List.copyOf(path);
        }
    }

    /** The path is a string starting with {@code prefix} (case-sensitive). */
    public record Prefix(List<String> path, String prefix) implements Predicate {
        public Prefix {
            path = List.copyOf(path);
        }
    }

    /**
     * The path is a string the function of {@code test} is true for: an engine reads the path's distinct strings (those
     * starting with {@code test.prefix()}) and tests each, instead of loading every item.
     */
    public record StringMatch(List<String> path, StringTermMatch test) implements Predicate {
        public StringMatch {
            path = List.copyOf(path);
        }
    }

    private final String root;
    private final Map<String, JsonNode> params;
    /** The FROM source binding {@code root}, or null when only paths are read ({@link #rootPath}). */
    private final Query.FromSource source;

    private IndexPredicates(String root, Map<String, JsonNode> params, Query.FromSource source) {
        this.root = root;
        this.params = params == null ? Map.of() : params;
        this.source = source;
    }

    /** The sargable conjuncts of the query's WHERE clause; ranges on the same path are merged into one. */
    public static List<Predicate> of(Query q, Map<String, JsonNode> params) {
        String root = rootAlias(q);
        if (root == null || q.where() == null) {
            return List.of();
        }
        IndexPredicates p = new IndexPredicates(root, params, q.from().get(0));
        List<Predicate> out = new ArrayList<>();
        Map<List<String>, Range[]> ranges = new LinkedHashMap<>();
        for (Expr conjunct : conjuncts(q.where(), new ArrayList<>())) {
            Predicate pred = p.predicate(conjunct);
            if (pred instanceof Range r) {
                Range[] bounds = ranges.computeIfAbsent(r.path(), k -> new Range[2]);
                // any one bound per side from any conjunct keeps a superset: the conjuncts must all hold
                if (r.low() != null) {
                    bounds[0] = r;
                }
                if (r.high() != null) {
                    bounds[1] = r;
                }
            } else if (pred != null) {
                out.add(pred);
            }
        }
        ranges.forEach((path, b) -> out.add(new Range(path, b[0] == null ? null : b[0].low(),
                b[0] != null && b[0].lowInclusive(), b[1] == null ? null : b[1].high(),
                b[1] != null && b[1].highInclusive())));
        return out;
    }

    /**
     * The property path an expression reads from the root alias of {@code q} ({@code c.a["b"]} → [a, b]), or null
     * when it is anything else. Used for ORDER BY items as well as filters.
     */
    public static List<String> rootPath(Query q, Expr e) {
        String root = rootAlias(q);
        return root == null ? null : new IndexPredicates(root, Map.of(), null).path(e);
    }

    /** The alias that binds whole items, or null when the first source is not the container itself. */
    private static String rootAlias(Query q) {
        if (q.from().isEmpty()) {
            return null;
        }
        Query.FromSource first = q.from().get(0);
        if (first.iterate() || !(first.collection() instanceof Query.Collection.Path p) || !p.segments().isEmpty()) {
            return null;
        }
        return first.alias();
    }

    private static List<Expr> conjuncts(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            conjuncts(b.left(), out);
            conjuncts(b.right(), out);
        } else {
            out.add(e);
        }
        return out;
    }

    /** The recognizer for one query's root alias, or null when the first source is not the container itself. */
    static IndexPredicates forQuery(Query q, Map<String, JsonNode> params) {
        String root = rootAlias(q);
        return root == null ? null : new IndexPredicates(root, params, q.from().get(0));
    }

    Predicate predicate(Expr e) {
        return switch (e) {
            case Expr.Binary b -> comparison(b);
            case Expr.In in when !in.not() -> in(in);
            case Expr.Between b when !b.not() -> {
                List<String> path = path(b.value());
                JsonNode low = value(b.low());
                JsonNode high = value(b.high());
                yield path == null || low == null || high == null ? null : new Range(path, low, true, high, true);
            }
            case Expr.Call call -> {
                Predicate prefix = startsWith(call);
                yield prefix != null ? prefix : stringMatch(call);
            }
            case Expr.Like like -> stringMatch(like);
            default -> null;
        };
    }

    private Predicate comparison(Expr.Binary b) {
        List<String> path = path(b.left());
        JsonNode v = value(b.right());
        Expr.BinaryOp op = b.op();
        if (path == null || v == null) {
            path = path(b.right());
            v = value(b.left());
            op = flip(op);
        }
        if (path == null || v == null || op == null) {
            return null;
        }
        return switch (op) {
            case EQ -> new Equal(path, List.of(v));
            case LT -> new Range(path, null, false, v, false);
            case LE -> new Range(path, null, false, v, true);
            case GT -> new Range(path, v, false, null, false);
            case GE -> new Range(path, v, true, null, false);
            default -> null;
        };
    }

    private static Expr.BinaryOp flip(Expr.BinaryOp op) {
        return switch (op) {
            case EQ -> Expr.BinaryOp.EQ;
            case LT -> Expr.BinaryOp.GT;
            case LE -> Expr.BinaryOp.GE;
            case GT -> Expr.BinaryOp.LT;
            case GE -> Expr.BinaryOp.LE;
            default -> null;
        };
    }

    private Predicate in(Expr.In in) {
        List<String> path = path(in.value());
        if (path == null) {
            return null;
        }
        List<JsonNode> values = new ArrayList<>();
        for (Expr item : in.items()) {
            JsonNode v = value(item);
            if (v == null) {
                return null;
            }
            values.add(v);
        }
        return new Equal(path, values);
    }

    /** {@code STARTSWITH(path, 'prefix')} or with a third argument that is the constant false (case-sensitive). */
    private Predicate startsWith(Expr.Call call) {
        if (!call.name().toUpperCase(Locale.ROOT).equals("STARTSWITH") || call.args().size() < 2
                || call.args().size() > 3) {
            return null;
        }
        if (call.args().size() == 3) {
            JsonNode ignoreCase = value(call.args().get(2));
            if (ignoreCase == null || !ignoreCase.isBoolean() || ignoreCase.booleanValue()) {
                return null;
            }
        }
        List<String> path = path(call.args().get(0));
        JsonNode prefix = value(call.args().get(1));
        return path == null || prefix == null || !prefix.isTextual() ? null : new Prefix(path, prefix.textValue());
    }

    private Predicate stringMatch(Expr conjunct) {
        StringTermMatch test = source == null ? null : StringTermMatch.of(conjunct, this, source, root, params);
        if (test == null) {
            return null;
        }
        Expr value = conjunct instanceof Expr.Like like ? like.value() : ((Expr.Call) conjunct).args().get(0);
        return new StringMatch(path(value), test);
    }

    List<String> path(Expr e) {
        List<String> names = new ArrayList<>();
        Expr x = e;
        while (x instanceof Expr.Member m) {
            names.add(0, m.name());
            x = m.target();
        }
        if (!(x instanceof Expr.Identifier id) || !id.name().equals(root) || names.isEmpty()) {
            return null;
        }
        return names;
    }

    /** A primitive constant or parameter value, or null (see {@link PrimitiveConstants}). */
    private JsonNode value(Expr e) {
        return PrimitiveConstants.of(e, params);
    }
}
