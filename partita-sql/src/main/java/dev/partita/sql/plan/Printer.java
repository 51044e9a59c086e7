package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.value.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writes syntax trees back as query text in the real query planner's style: clauses on their own lines, every
 * operator application in parentheses ({@code (c.n >= @min)}), strings in double quotes, object keys quoted,
 * {@code FROM Root AS r}. The text always parses back to an equivalent tree with {@code Sql.parse}.
 */
final class Printer {
    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}_][\\p{L}\\p{Nd}_]*");
    /** Keywords (any case) and lower-case-only literals that cannot follow a dot. */
    private static final Set<String> KEYWORDS = Set.of("and", "array", "as", "asc", "between", "by", "desc",
            "distinct", "escape", "exists", "from", "group", "in", "join", "left", "like", "limit", "not", "offset",
            "or", "order", "rank", "right", "select", "top", "value", "where");
    private static final Set<String> LITERALS = Set.of("true", "false", "null", "undefined", "udf");

    private Printer() {
    }

    /** A whole query, one clause per line. */
    static String query(Query q) {
        return String.join("\n", clauses(q));
    }

    /** The clauses of a query: SELECT line, FROM/JOIN lines, WHERE, GROUP BY, ORDER BY, OFFSET/LIMIT. */
    static List<String> clauses(Query q) {
        List<String> out = new ArrayList<>();
        out.add("SELECT " + (q.distinct() ? "DISTINCT " : "") + (q.top() == null ? "" : "TOP " + count(q.top()) + " ")
                + selection(q.selection()));
        out.addAll(from(q));
        if (q.where() != null) {
            out.add("WHERE " + expr(q.where()));
        }
        if (!q.groupBy().isEmpty()) {
            out.add("GROUP BY " + list(q.groupBy()));
        }
        if (!q.orderBy().isEmpty()) {
            out.add(orderBy(q.orderBy()));
        }
        if (q.offset() != null) {
            out.add("OFFSET " + count(q.offset()) + " LIMIT " + count(q.limit()));
        }
        return out;
    }

    static List<String> from(Query q) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < q.from().size(); i++) {
            out.add((i == 0 ? "FROM " : "JOIN ") + source(q.from().get(i)));
        }
        return out;
    }

    static String orderBy(List<Query.OrderItem> items) {
        List<String> parts = new ArrayList<>();
        for (Query.OrderItem o : items) {
            parts.add(expr(o.expr()) + (o.directionWritten() ? (o.descending() ? " DESC" : " ASC") : ""));
        }
        return "ORDER BY " + String.join(", ", parts);
    }

    static String selection(Query.Selection s) {
        return switch (s) {
            case Query.Selection.Star star -> "*";
            case Query.Selection.Value v -> "VALUE " + expr(v.expr());
            case Query.Selection.Items items -> {
                List<String> parts = new ArrayList<>();
                for (Query.SelectItem item : items.items()) {
                    parts.add(expr(item.expr()) + (item.alias() == null ? "" : " AS " + item.alias()));
                }
                yield String.join(", ", parts);
            }
        };
    }

    static String count(Query.Count c) {
        return switch (c) {
            case Query.Count.Constant k -> Long.toString(k.value());
            case Query.Count.Parameter p -> p.name();
        };
    }

    private static String source(Query.FromSource fs) {
        if (fs.collection() instanceof Query.Collection.SubqueryCollection sq) {
            return "(" + inline(sq.query()) + ")" + (fs.alias().isEmpty() ? "" : " AS " + fs.alias());
        }
        Query.Collection.Path path = (Query.Collection.Path) fs.collection();
        StringBuilder sb = new StringBuilder(path.name());
        String implied = path.name();
        for (Query.PathSegment seg : path.segments()) {
            if (seg instanceof Query.PathSegment.Name n) {
                sb.append(member(n.name(), false));
                implied = n.name();
            } else {
                sb.append('[').append(((Query.PathSegment.Position) seg).index()).append(']');
                implied = null;
            }
        }
        if (fs.iterate()) {
            return fs.alias() + " IN " + sb;
        }
        return fs.alias().equals(implied) ? sb.toString() : sb + " AS " + fs.alias();
    }

    /** A nested query on one line. */
    private static String inline(Query q) {
        return String.join(" ", clauses(q));
    }

    static String list(List<Expr> exprs) {
        List<String> parts = new ArrayList<>();
        for (Expr e : exprs) {
            parts.add(expr(e));
        }
        return String.join(", ", parts);
    }

    /** One expression. */
    static String expr(Expr e) {
        return switch (e) {
            case Expr.Literal l -> literal(l.value());
            case Expr.Param p -> p.name();
            case Expr.Identifier id -> id.name();
            case Expr.Member m -> expr(m.target()) + member(m.name(), m.bracket());
            case Expr.Index ix -> expr(ix.target()) + "[" + expr(ix.index()) + "]";
            case Expr.Unary u -> unary(u);
            case Expr.Binary b -> "(" + expr(b.left()) + " " + b.op().symbol() + " " + expr(b.right()) + ")";
            case Expr.Conditional c -> "(" + expr(c.condition()) + " ? " + expr(c.whenTrue()) + " : "
                    + expr(c.whenFalse()) + ")";
            case Expr.Between b -> "(" + expr(b.value()) + (b.not() ? " NOT" : "") + " BETWEEN " + expr(b.low())
                    + " AND " + expr(b.high()) + ")";
            case Expr.In in -> "(" + expr(in.value()) + (in.not() ? " NOT" : "") + " IN (" + list(in.items()) + "))";
            case Expr.Like l -> "(" + expr(l.value()) + (l.not() ? " NOT" : "") + " LIKE " + expr(l.pattern())
                    + (l.escape() == null ? "" : " ESCAPE " + expr(l.escape())) + ")";
            case Expr.Call c -> c.name() + "(" + list(c.args()) + ")";
            case Expr.UdfCall u -> "udf." + u.name() + "(" + list(u.args()) + ")";
            case Expr.ArrayCtor a -> "[" + list(a.items()) + "]";
            case Expr.ObjectCtor o -> {
                List<String> parts = new ArrayList<>();
                for (Expr.Property p : o.properties()) {
                    parts.add(string(p.name()) + ": " + expr(p.value()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            case Expr.Property p -> string(p.name()) + ": " + expr(p.value());
            case Expr.Subquery s -> switch (s.kind()) {
                case SCALAR -> "(" + inline(s.query()) + ")";
                default -> s.kind().name() + "(" + inline(s.query()) + ")";
            };
        };
    }

    private static String unary(Expr.Unary u) {
        String operand = expr(u.operand());
        if (u.operand() instanceof Expr.Literal l && l.value() != null && l.value().isNumber()) {
            operand = "(" + operand + ")"; // keep "-(5)" from folding into the literal -5
        }
        return switch (u.op()) {
            case NOT -> "(NOT " + operand + ")";
            default -> "(" + u.op().symbol() + operand + ")";
        };
    }

    private static String member(String name, boolean bracket) {
        if (!bracket && IDENTIFIER.matcher(name).matches() && !KEYWORDS.contains(name.toLowerCase(Locale.ROOT))
                && !LITERALS.contains(name)) {
            return "." + name;
        }
        return "[" + string(name) + "]";
    }

    static String string(String s) {
        return Values.toJsonText(com.fasterxml.jackson.databind.node.TextNode.valueOf(s));
    }

    static String literal(JsonNode v) {
        if (v == null) {
            return "undefined";
        }
        if (v.isNumber()) {
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                return Long.toString(v.longValue());
            }
            double d = v.doubleValue();
            if (Double.isNaN(d)) {
                return "NaN";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "Infinity" : "(-Infinity)";
            }
            return Double.toString(d);
        }
        return Values.toJsonText(v);
    }
}
