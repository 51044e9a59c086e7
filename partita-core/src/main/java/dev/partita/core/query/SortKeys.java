package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Query;
import dev.partita.sql.plan.IndexPredicates;
import dev.partita.sql.value.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The ORDER BY of a query that can be read through the index: every key a property path of the items themselves, and
 * rows that depend on one item at a time once the order is given (no GROUP BY, aggregates or DISTINCT). Orders loaded
 * items exactly as the evaluator's ORDER BY does: by the keys in the language's total order, then by the {@code _rid}
 * document number (ascending when the first key is ascending, descending when it is descending — the order the SDKs
 * rely on to resume, query-plans.md §3.2).
 */
record SortKeys(List<List<String>> paths, boolean[] descending) {

    /** An item read for ordering: its JSON, its key values, its rid document number and its stored length. */
    record Loaded(JsonNode item, JsonNode[] keys, long rid, int bytes) {
    }

    /** The query's sort keys, or null when the query must be evaluated whole. */
    static SortKeys of(SqlQuery query) {
        if (!query.hasOrderBy() || query.hasGroupBy() || query.hasAggregates() || query.isDistinct()) {
            return null;
        }
        List<List<String>> paths = new ArrayList<>();
        boolean[] descending = new boolean[query.orderBy().size()];
        int i = 0;
        for (Query.OrderItem item : query.orderBy()) {
            List<String> path = IndexPredicates.rootPath(query.ast(), item.expr());
            if (path == null) {
                return null;
            }
            paths.add(List.copyOf(path));
            descending[i++] = item.descending();
        }
        return new SortKeys(List.copyOf(paths), descending);
    }

    List<String> first() {
        return paths.get(0);
    }

    boolean firstDescending() {
        return descending[0];
    }

    /** The value at a key's path: undefined (Java null) when a step is missing or not an object. */
    static JsonNode at(JsonNode item, List<String> path) {
        JsonNode v = item;
        for (String step : path) {
            v = v != null && v.isObject() ? v.get(step) : null;
        }
        return v;
    }

    Loaded load(JsonNode item, int bytes) {
        JsonNode[] keys = new JsonNode[paths.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = at(item, paths.get(i));
        }
        JsonNode rid = item.get("_rid");
        Long number = rid != null && rid.isTextual() ? SqlQuery.ridDocumentNumber(rid.textValue()) : null;
        return new Loaded(item, keys, number == null ? 0 : number, bytes);
    }

    Comparator<Loaded> order() {
        return (a, b) -> {
            for (int i = 0; i < descending.length; i++) {
                int c = Values.compareTotal(a.keys[i], b.keys[i]);
                if (c != 0) {
                    return descending[i] ? -c : c;
                }
            }
            int c = Long.compare(a.rid, b.rid);
            return descending[0] ? -c : c;
        };
    }
}
