package dev.partita.sql.plan;

import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-range query text of each plan shape (query-plans.md §2), in the real planner's format. Each text is
 * ordinary SQL of this module's grammar whose rows have exactly the shape the SDK merges: ORDER BY rows
 * {@code {"_rid", "orderByItems", "payload"}}, aggregate partials, GROUP BY rows {@code {"groupByItems", "payload"}}.
 */
final class Rewriter {
    /** Replaced by the SDK with {@code true} or a resume filter before the text is sent to a range. */
    static final String ORDER_BY_FILTER = "{documentdb-formattableorderbyquery-filter}";

    private Rewriter() {
    }

    /**
     * ORDER BY: {@code SELECT [TOP n] c._rid, [{"item": k1}, ...] AS orderByItems, <projection> AS payload ...
     * WHERE (<user filter> AND (<placeholder>)) [AND IS_DEFINED(<value>)] ORDER BY ... [OFFSET 0 LIMIT o+l]}.
     *
     * @param top         TOP to keep per range, or null
     * @param offsetLimit OFFSET+LIMIT to keep per range, or null
     */
    static String orderBy(Query q, Long top, Long offsetLimit) {
        String root = q.from().get(0).alias();
        List<String> items = new ArrayList<>();
        for (Query.OrderItem o : q.orderBy()) {
            items.add("{\"item\": " + Printer.expr(o.expr()) + "}");
        }
        String payload = switch (q.selection()) {
            case Query.Selection.Star s -> root;
            case Query.Selection.Value v -> Printer.expr(v.expr());
            case Query.Selection.Items i -> "{" + objectItems(i) + "}";
        };
        String filter = "(" + ORDER_BY_FILTER + ")";
        String where = q.where() == null ? filter : "(" + Printer.expr(q.where()) + " AND " + filter + ")";
        if (q.selection() instanceof Query.Selection.Value v) {
            where = "(" + where + " AND IS_DEFINED(" + Printer.expr(v.expr()) + "))";
        }
        List<String> lines = new ArrayList<>();
        lines.add("SELECT " + (top == null ? "" : "TOP " + top + " ") + root + "._rid, [" + String.join(", ", items)
                + "] AS orderByItems, " + payload + " AS payload");
        lines.addAll(Printer.from(q));
        lines.add("WHERE " + where);
        lines.add(Printer.orderBy(q.orderBy()));
        if (offsetLimit != null) {
            lines.add("OFFSET 0 LIMIT " + offsetLimit);
        }
        return String.join("\n", lines);
    }

    /**
     * Aggregates without GROUP BY: {@code SELECT VALUE [<partial>]} or {@code SELECT {<alias>: <partial>, ...} AS
     * payload}, with the user's FROM, WHERE and ORDER BY; TOP, OFFSET/LIMIT and DISTINCT stay on the client.
     */
    static String aggregate(Query q) {
        String select = q.selection() instanceof Query.Selection.Value v
                ? "SELECT VALUE [" + SelectList.partial(v.expr()) + "]"
                : "SELECT " + SelectList.payloadObject(SelectList.columns(q)) + " AS payload";
        List<String> lines = new ArrayList<>();
        lines.add(select);
        lines.addAll(Printer.from(q));
        if (q.where() != null) {
            lines.add("WHERE " + Printer.expr(q.where()));
        }
        if (!q.orderBy().isEmpty()) {
            lines.add(Printer.orderBy(q.orderBy()));
        }
        return String.join("\n", lines);
    }

    /**
     * GROUP BY: {@code SELECT [{"item": k1}, ...] AS groupByItems, <payload> AS payload ... GROUP BY k1, ...}.
     * The payload is {@code [<partial>]} for a VALUE aggregate, the value for another VALUE (rows whose value is
     * undefined are filtered out: the SDK cannot merge a row without payload), else the object of columns.
     */
    static String groupBy(Query q) {
        List<String> items = new ArrayList<>();
        for (Expr k : q.groupBy()) {
            items.add("{\"item\": " + Printer.expr(k) + "}");
        }
        String where = q.where() == null ? null : Printer.expr(q.where());
        String payload;
        if (q.selection() instanceof Query.Selection.Value v) {
            if (SelectList.valueOperator(q) != null) {
                payload = "[" + SelectList.partial(v.expr()) + "]";
            } else {
                payload = Printer.expr(v.expr());
                String defined = "IS_DEFINED(" + payload + ")";
                where = where == null ? defined : "(" + where + " AND " + defined + ")";
            }
        } else {
            payload = SelectList.payloadObject(SelectList.columns(q));
        }
        List<String> lines = new ArrayList<>();
        lines.add("SELECT [" + String.join(", ", items) + "] AS groupByItems, " + payload + " AS payload");
        lines.addAll(Printer.from(q));
        if (where != null) {
            lines.add("WHERE " + where);
        }
        lines.add("GROUP BY " + Printer.list(q.groupBy()));
        return String.join("\n", lines);
    }

    /**
     * The query with {@code OFFSET 0 LIMIT <offset + limit>} so that each range returns enough rows (a TOP next to
     * OFFSET counts rows after the offset, so the caller folds it into that limit and it is dropped here).
     */
    static String offsetLimit(Query q, long offsetPlusLimit) {
        List<String> lines = Printer.clauses(new Query(q.distinct(), null, q.selection(), q.from(), q.where(),
                q.groupBy(), q.orderBy(), null, null));
        lines.add("OFFSET 0 LIMIT " + offsetPlusLimit);
        return String.join("\n", lines);
    }

    /** The query without TOP, OFFSET and LIMIT (DISTINCT: a range's first rows may all be duplicates). */
    static String withoutPaging(Query q) {
        return Printer.query(new Query(q.distinct(), null, q.selection(), q.from(), q.where(), q.groupBy(),
                q.orderBy(), null, null));
    }

    /** The inner {@code SELECT DISTINCT ...} of a DCOUNT, without an ORDER BY that cannot change the count. */
    static String dcountInner(Query inner) {
        return Printer.query(new Query(inner.distinct(), inner.top(), inner.selection(), inner.from(), inner.where(),
                inner.groupBy(), List.of(), inner.offset(), inner.limit()));
    }

    static String objectItems(Query.Selection.Items items) {
        List<String> parts = new ArrayList<>();
        for (Query.SelectItem item : items.items()) {
            parts.add(Printer.string(item.outputName()) + ": " + Printer.expr(item.expr()));
        }
        return String.join(", ", parts);
    }
}
