package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Recognizes a range's row of a {@code SELECT VALUE <aggregate>} rewrite (with or without GROUP BY, see
 * {@link SelectList#partial}) whose partial stands for an undefined aggregate: SUM without {@code item}, AVG without
 * a sum or over no values, MIN/MAX without their value. Computed over the whole scope, such a row is the service's
 * "no row", but both SDKs turn it into one (the Java SDK's SelectValueAggregateValues gives {@code null}); the ranges
 * leave it out instead, which both SDKs read as no row.
 */
public final class UndefinedPartial {
    private UndefinedPartial() {
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
