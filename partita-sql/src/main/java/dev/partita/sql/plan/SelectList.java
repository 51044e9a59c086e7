package dev.partita.sql.plan;

import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.parse.Validator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The projection as the SDK's aggregate and GROUP BY pipelines see it: output columns, each a plain value or one
 * aggregate call, and the per-range partial each aggregate is rewritten to (query-plans.md §2.11). An aggregate
 * anywhere else (inside another expression) is the service's "Compositions of aggregates" error.
 */
final class SelectList {
    static final String COMPOSITION = "Compositions of aggregates and other expressions are not allowed.";

    /** The SDK's aggregate operator names by function name. */
    private static final Map<String, String> OPERATORS = Map.of("count", "Count", "sum", "Sum", "min", "Min",
            "max", "Max", "avg", "Average", "makelist", "MakeList", "makeset", "MakeSet", "countif", "CountIf");

    /** One output column; {@code operator} is the SDK aggregate name, or null for a plain value. */
    record Column(String alias, Expr expr, String operator) {
    }

    private SelectList() {
    }

    /** The columns of a select list ({@code SELECT a, COUNT(1) AS n}); empty for {@code *} and VALUE. */
    static List<Column> columns(Query q) {
        List<Column> out = new ArrayList<>();
        if (q.selection() instanceof Query.Selection.Items items) {
            for (Query.SelectItem item : items.items()) {
                out.add(new Column(item.outputName(), item.expr(), operator(item.expr())));
            }
        }
        return out;
    }

    /** The SDK operator of {@code SELECT VALUE <aggregate>}, or null. */
    static String valueOperator(Query q) {
        return q.selection() instanceof Query.Selection.Value v ? operator(v.expr()) : null;
    }

    /**
     * The operator when e is exactly one aggregate call, null when e has no aggregate.
     *
     * @throws SqlException when an aggregate is part of a larger expression
     */
    static String operator(Expr e) {
        if (Validator.isAggregate(e)) {
            return OPERATORS.get(((Expr.Call) e).name().toLowerCase(Locale.ROOT));
        }
        Validator.forEachNode(e, n -> {
            if (Validator.isAggregate(n)) {
                throw new SqlException(COMPOSITION);
            }
        });
        return null;
    }

    /** The per-range partial of one aggregate call, e.g. {@code {"item": MIN(x), "item2": {"min": MIN(x), ...}}}. */
    static String partial(Expr aggregate) {
        Expr.Call call = (Expr.Call) aggregate;
        String op = OPERATORS.get(call.name().toLowerCase(Locale.ROOT));
        String arg = Printer.list(call.args());
        return switch (op) {
            case "Min", "Max" -> {
                String fn = op.toUpperCase(Locale.ROOT);
                yield "{\"item\": " + fn + "(" + arg + "), \"item2\": {\"" + op.toLowerCase(Locale.ROOT) + "\": " + fn
                        + "(" + arg + "), \"count\": COUNT(" + arg + ")}}";
            }
            case "Average" -> "{\"item\": {\"sum\": SUM(" + arg + "), \"count\": COUNT(" + arg + ")}}";
            // a second member keeps an undefined sum's partial a non-empty object: the JS SDK reads the empty
            // partial {} as null (a sum of 0 or null, or the end of a VALUE GROUP BY) but skips one without "item";
            // both SDKs read only "item" and "item2"
            case "Sum" -> "{\"item\": SUM(" + arg + "), \"isPartial\": true}";
            default -> "{\"item\": " + call.name().toUpperCase(Locale.ROOT) + "(" + arg + ")}";
        };
    }

    /** {@code {"alias": <partial or value>, ...}} for a select list. */
    static String payloadObject(List<Column> columns) {
        List<String> parts = new ArrayList<>();
        for (Column c : columns) {
            parts.add(Printer.string(c.alias()) + ": " + (c.operator() == null ? Printer.expr(c.expr())
                    : partial(c.expr())));
        }
        return "{" + String.join(", ", parts) + "}";
    }
}
