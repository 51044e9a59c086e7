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
 * instead, which both SDKs read as no row. An aliased aggregate's partial is sent as computed, as the service sends
 * it: the JavaScript SDK's GROUP BY then keeps the alias with an undefined value (its groupBy spec's snapshot), and
 * the Java SDK shows it as {@code {}}, as against the service.
 */
public final class UndefinedPartial implements UndefinedAggregates.RowRules {
    /** The rules of the SDKs' partials. */
    public static final UndefinedPartial RULES = new UndefinedPartial();

    private UndefinedPartial() {
    }

    @Override
    public Set<String> hiddenIn(JsonNode wholeRow) {
        return isUndefinedValueAggregate(wholeRow) ? null : Set.of();
    }

    @Override
    public JsonNode without(JsonNode row, Set<String> members) {
        ObjectNode copy = ((ObjectNode) row).deepCopy();
        ((ObjectNode) copy.get("payload")).remove(members);
        return copy;
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
