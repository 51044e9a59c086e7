package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.eval.UndefinedAggregates;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Recognizes a range's row of a {@code SELECT VALUE <aggregate>} rewrite (with or without GROUP BY, see
 * {@link SelectList#partial}) whose partial stands for an undefined aggregate: SUM without {@code item}, AVG without
 * a sum or over no values, MIN/MAX without their value. Computed over the whole scope, such a row is the service's
 * "no row", but the Java SDK turns it into a {@code null} row (SelectValueAggregateValues); the ranges leave it out
 * instead, which both SDKs read as no row. Likewise an aliased MIN/MAX that is undefined over the whole
 * scope, which the Java SDK would show as {@code {}}, is left out of the payload: both SDKs then leave the alias out.
 * (An aliased AVG cannot be: the Java SDK's AverageAggregator fails on a missing alias.)
 */
public final class UndefinedPartial implements UndefinedAggregates.RowRules {
    /** The rules of the SDKs' partials. */
    public static final UndefinedPartial RULES = new UndefinedPartial();

    private UndefinedPartial() {
    }

    @Override
    public Set<String> hiddenIn(JsonNode wholeRow) {
        if (isUndefinedValueAggregate(wholeRow)) {
            return null;
        }
        JsonNode payload = wholeRow != null && wholeRow.isObject() ? wholeRow.get("payload") : null;
        if (payload == null || !payload.isObject()) {
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> e : payload.properties()) {
            if (isUndefinedExtreme(e.getValue())) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    @Override
    public JsonNode without(JsonNode row, Set<String> members) {
        ObjectNode copy = ((ObjectNode) row).deepCopy();
        ((ObjectNode) copy.get("payload")).remove(members);
        return copy;
    }

    /** A MIN/MAX partial without its value: {@code {"item2": {"count": n}}}. */
    private static boolean isUndefinedExtreme(JsonNode partial) {
        JsonNode item2 = partial.get("item2");
        return partial.isObject() && item2 != null && item2.isObject() && item2.has("count") && !item2.has("min")
                && !item2.has("max");
    }

    /** True when {@code row} is a VALUE aggregate's partial row, and that partial is undefined. */
    public static boolean isUndefinedValueAggregate(JsonNode row) {
        JsonNode wrapped = row != null && row.isObject() && row.has("groupByItems") ? row.get("payload") : row;
        if (wrapped == null || !wrapped.isArray() || wrapped.size() != 1 || !wrapped.get(0).isObject()) {
            return false;
        }
        JsonNode partial = wrapped.get(0);
        JsonNode item2 = partial.get("item2");
        if (item2 != null && item2.isObject() && item2.has("count")) {
            return !item2.has("min") && !item2.has("max");
        }
        JsonNode item = partial.get("item");
        if (item == null) {
            return partial.has("isPartial"); // an undefined SUM
        }
        if (item.isObject() && item.has("count") && item.size() <= 2) {
            return !item.has("sum") || item.get("count").asLong() == 0; // AVG
        }
        return false;
    }
}
