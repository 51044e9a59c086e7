package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.value.Values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The partition-key values a query can match, read from the WHERE clause of the query that reads the container (the
 * query itself, or its innermost FROM subquery): equalities and IN lists on the
 * partition-key paths of the root alias, combined through AND (intersection) and OR (union). Everything else
 * (NOT, ranges, functions, other aliases, non-primitive values) leaves the levels it touches unconstrained, so the
 * answer may be too wide but is never too narrow. For hierarchical keys a tuple pins a leading prefix of the levels;
 * a result whose any tuple pins no level, a contradiction, or more than {@link #MAX_POINTS} tuples is "fan out".
 */
public final class PartitionKeyFilter {
    static final int MAX_POINTS = 1000;

    private final String root;
    private final List<List<String>> paths;
    private final Map<String, JsonNode> params;

    private PartitionKeyFilter(String root, List<List<String>> paths, Map<String, JsonNode> params) {
        this.root = root;
        this.paths = paths;
        this.params = params;
    }

    /** The value tuples (full keys or leading prefixes, in path order), or empty to fan out over the full range. */
    public static Optional<List<List<JsonNode>>> points(Query q, List<String> partitionKeyPaths,
                                                 Map<String, JsonNode> params) {
        if (q.from().isEmpty() || partitionKeyPaths.isEmpty()) {
            return Optional.empty();
        }
        Query.FromSource first = q.from().get(0);
        if (first.collection() instanceof Query.Collection.SubqueryCollection sq) {
            // the rows come from the subquery: its filter bounds the items read (the outer one can only narrow)
            return points(sq.query(), partitionKeyPaths, params);
        }
        if (q.where() == null) {
            return Optional.empty();
        }
        if (first.iterate() || !(first.collection() instanceof Query.Collection.Path p) || !p.segments().isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> paths = new ArrayList<>();
        for (String path : partitionKeyPaths) {
            paths.add(segments(path));
        }
        PartitionKeyFilter f = new PartitionKeyFilter(first.alias(), paths, params == null ? Map.of() : params);
        List<JsonNode[]> assignments = f.constraint(q.where());
        return assignments == null ? Optional.empty() : f.tuples(assignments);
    }

    /**
     * The assignments (one value or null per level) an expression allows, or null for "any". An empty list means the
     * expression can never be true for one partition key.
     */
    private List<JsonNode[]> constraint(Expr e) {
        return switch (e) {
            case Expr.Binary b when b.op() == Expr.BinaryOp.AND -> and(constraint(b.left()), constraint(b.right()));
            case Expr.Binary b when b.op() == Expr.BinaryOp.OR -> or(constraint(b.left()), constraint(b.right()));
            case Expr.Binary b when b.op() == Expr.BinaryOp.EQ -> {
                List<JsonNode[]> c = equality(b.left(), b.right());
                yield c != null ? c : equality(b.right(), b.left());
            }
            case Expr.In in when !in.not() -> {
                int level = level(in.value());
                if (level < 0 || in.items().size() > MAX_POINTS) {
                    yield null;
                }
                List<JsonNode[]> out = new ArrayList<>();
                for (Expr item : in.items()) {
                    JsonNode v = value(item);
                    if (v == null) {
                        yield null;
                    }
                    out.add(assign(level, v));
                }
                yield out;
            }
            default -> null;
        };
    }

    private List<JsonNode[]> equality(Expr path, Expr other) {
        int level = level(path);
        JsonNode v = level < 0 ? null : value(other);
        return v == null ? null : List.<JsonNode[]>of(assign(level, v));
    }

    private JsonNode[] assign(int level, JsonNode v) {
        JsonNode[] a = new JsonNode[paths.size()];
        a[level] = v;
        return a;
    }

    private static List<JsonNode[]> and(List<JsonNode[]> a, List<JsonNode[]> b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        List<JsonNode[]> out = new ArrayList<>();
        for (JsonNode[] x : a) {
            for (JsonNode[] y : b) {
                JsonNode[] merged = merge(x, y);
                if (merged != null) {
                    out.add(merged);
                    if (out.size() > MAX_POINTS) {
                        return null;
                    }
                }
            }
        }
        return out;
    }

    private static List<JsonNode[]> or(List<JsonNode[]> a, List<JsonNode[]> b) {
        if (a == null || b == null || a.size() + b.size() > MAX_POINTS) {
            return null;
        }
        List<JsonNode[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** The assignment satisfying both, or null when they pin a level to different values. */
    private static JsonNode[] merge(JsonNode[] x, JsonNode[] y) {
        JsonNode[] m = x.clone();
        for (int i = 0; i < m.length; i++) {
            if (y[i] == null) {
                continue;
            }
            if (m[i] != null && !Values.deepEquals(m[i], y[i])) {
                return null;
            }
            m[i] = y[i];
        }
        return m;
    }

    /** Leading pinned prefixes, deduplicated, without tuples that extend another one; empty Optional to fan out. */
    private Optional<List<List<JsonNode>>> tuples(List<JsonNode[]> assignments) {
        Map<String, List<JsonNode>> unique = new LinkedHashMap<>();
        for (JsonNode[] a : assignments) {
            List<JsonNode> prefix = new ArrayList<>();
            for (JsonNode v : a) {
                if (v == null) {
                    break;
                }
                prefix.add(v);
            }
            if (prefix.isEmpty()) {
                return Optional.empty();
            }
            unique.putIfAbsent(key(prefix, prefix.size()), List.copyOf(prefix));
        }
        if (unique.isEmpty()) {
            return Optional.empty(); // matches nothing: let every range answer with no rows
        }
        List<List<JsonNode>> out = new ArrayList<>();
        for (List<JsonNode> t : unique.values()) {
            boolean covered = false;
            for (int k = 1; k < t.size() && !covered; k++) {
                covered = unique.containsKey(key(t, k));
            }
            if (!covered) {
                out.add(t);
            }
        }
        return Optional.of(List.copyOf(out));
    }

    private static String key(List<JsonNode> tuple, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(Values.toJsonText(tuple.get(i))).append('\u0000');
        }
        return sb.toString();
    }

    /** The partition-key level this expression reads (a path from the root alias), or -1. */
    private int level(Expr e) {
        List<String> names = new ArrayList<>();
        Expr x = e;
        while (x instanceof Expr.Member m) {
            names.add(0, m.name());
            x = m.target();
        }
        if (!(x instanceof Expr.Identifier id) || !id.name().equals(root) || names.isEmpty()) {
            return -1;
        }
        return paths.indexOf(names);
    }

    /** A primitive constant or parameter value, or null (see {@link PrimitiveConstants}). */
    private JsonNode value(Expr e) {
        return PrimitiveConstants.of(e, params);
    }

    /**
     * The property names of a partition-key path: {@code /a/b} → [a, b]; {@code /"x y"} → [x y]. A path that uses
     * array positions gives a list no expression matches.
     */
    public static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < path.length()) {
            if (path.charAt(i) != '/') {
                return List.of("/unmatchable");
            }
            i++;
            StringBuilder seg = new StringBuilder();
            if (i < path.length() && path.charAt(i) == '"') {
                i++;
                while (i < path.length() && path.charAt(i) != '"') {
                    if (path.charAt(i) == '\\' && i + 1 < path.length()) {
                        i++;
                    }
                    seg.append(path.charAt(i++));
                }
                i++; // closing quote
            } else {
                while (i < path.length() && path.charAt(i) != '/') {
                    seg.append(path.charAt(i++));
                }
            }
            String s = seg.toString();
            if (s.isEmpty() || s.contains("[")) {
                return List.of("/unmatchable");
            }
            out.add(s);
        }
        return out.isEmpty() ? List.of("/unmatchable") : out;
    }
}
