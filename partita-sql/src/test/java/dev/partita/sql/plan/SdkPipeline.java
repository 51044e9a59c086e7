package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Test-only model of the Java SDK 4.81 client pipeline for a cross-partition query (query-plans.md §1.1 and the
 * SDK's query/aggregation classes): each range runs the plan's text through this module's evaluator, then the
 * ranges are merged (ORDER BY k-way merge or concatenation) and the pipeline applies, innermost first,
 * AGGREGATE → DISTINCT → GROUP BY → OFFSET → LIMIT → TOP → DCOUNT.
 * <p>
 * Two deliberate differences from the SDK: GROUP BY emits groups in first-seen order (the SDK: hash order), and
 * with {@code quirks = false} an undefined aggregate result is left out (the SDK writes {@code null} for
 * {@code SELECT VALUE} and {@code {}} for a select-list alias, query-plans.md §2.11/§2.12).
 */
final class SdkPipeline {
    static final EvalContext CTX = EvalContext.of(Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC));
    static final String FILTER = Rewriter.ORDER_BY_FILTER;
    /** Stands for the SDK's Undefined (distinct from JSON null). */
    private static final Object UNDEFINED = new Object() {
        @Override
        public String toString() {
            return "undefined";
        }
    };

    /** One row of the ORDER BY merge, with where it came from. */
    record MergedRow(int range, JsonNode row) {
        JsonNode orderByItems() {
            return row.get("orderByItems");
        }

        String rid() {
            return row.path("_rid").asText(null);
        }
    }

    private SdkPipeline() {
    }

    /** The SDK's result for this plan over these ranges (the filter placeholder replaced by {@code true}). */
    static List<JsonNode> run(String userText, Map<String, JsonNode> params, ObjectNode queryInfo,
                              List<List<JsonNode>> ranges, boolean quirks) {
        List<String> filters = new ArrayList<>();
        ranges.forEach(r -> filters.add("true"));
        List<List<JsonNode>> perRange = perRange(userText, params, queryInfo, ranges, filters);
        List<JsonNode> base;
        if (!queryInfo.get("orderBy").isEmpty()) {
            base = new ArrayList<>();
            for (MergedRow m : merge(perRange, queryInfo)) {
                JsonNode payload = m.row().get("payload");
                if (payload == null) {
                    throw new AssertionError("ORDER BY row without payload: " + m.row());
                }
                base.add(payload);
            }
        } else {
            base = new ArrayList<>();
            perRange.forEach(base::addAll);
        }
        return pipeline(base, queryInfo, quirks);
    }

    /** Each range's rows for the plan's text, with the filter placeholder replaced per range. */
    static List<List<JsonNode>> perRange(String userText, Map<String, JsonNode> params, ObjectNode queryInfo,
                                         List<List<JsonNode>> ranges, List<String> filters) {
        String rewritten = queryInfo.get("rewrittenQuery").asText();
        String text = rewritten.isEmpty() ? userText : rewritten;
        List<List<JsonNode>> out = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            String sent = text.replace(FILTER, filters.get(i));
            List<JsonNode> rows = new ArrayList<>(Sql.parse(sent).execute(ranges.get(i), params, CTX));
            // "Documents" holding exactly one array is replaced by that array, repeatedly (§1.2)
            while (rows.size() == 1 && rows.get(0).isArray()) {
                JsonNode inner = rows.remove(0);
                inner.forEach(rows::add);
            }
            out.add(rows);
        }
        return out;
    }

    /** The k-way merge on orderByItems; ties go to the range with the smaller minInclusive (the lower index). */
    static List<MergedRow> merge(List<List<JsonNode>> perRange, ObjectNode queryInfo) {
        List<Boolean> descending = new ArrayList<>();
        queryInfo.get("orderBy").forEach(o -> descending.add(o.asText().equals("Descending")));
        int[] next = new int[perRange.size()];
        List<MergedRow> out = new ArrayList<>();
        while (true) {
            int best = -1;
            for (int r = 0; r < perRange.size(); r++) {
                if (next[r] < perRange.get(r).size() && (best < 0
                        || compareRows(perRange.get(r).get(next[r]), perRange.get(best).get(next[best]), descending) < 0)) {
                    best = r;
                }
            }
            if (best < 0) {
                return out;
            }
            out.add(new MergedRow(best, perRange.get(best).get(next[best]++)));
        }
    }

    static int compareRows(JsonNode a, JsonNode b, List<Boolean> descending) {
        for (int i = 0; i < descending.size(); i++) {
            int c = compareItems(item(a.get("orderByItems").get(i)), item(b.get("orderByItems").get(i)));
            if (c != 0) {
                return descending.get(i) ? -c : c;
            }
        }
        return 0;
    }

    private static Object item(JsonNode wrapper) {
        JsonNode v = wrapper.get("item");
        return v == null ? UNDEFINED : v;
    }

    /** The SDK's ItemComparator: undefined < null < boolean < number (as double) < string; arrays/objects fail. */
    static int compareItems(Object a, Object b) {
        int ta = type(a);
        int tb = type(b);
        if (ta != tb) {
            return Integer.compare(ta, tb);
        }
        return switch (ta) {
            case 0, 1 -> 0;
            case 2 -> Boolean.compare(((JsonNode) a).booleanValue(), ((JsonNode) b).booleanValue());
            case 3 -> Double.compare(((JsonNode) a).doubleValue(), ((JsonNode) b).doubleValue());
            case 4 -> ((JsonNode) a).textValue().compareTo(((JsonNode) b).textValue());
            default -> throw new ClassCastException("Unexpected type: " + a);
        };
    }

    private static int type(Object v) {
        if (v == UNDEFINED) {
            return 0;
        }
        JsonNode n = (JsonNode) v;
        if (n == null || n.isNull()) {
            return 1;
        }
        return n.isBoolean() ? 2 : n.isNumber() ? 3 : n.isTextual() ? 4 : n.isArray() ? 5 : 6;
    }

    // ------------------------------------------------------------------ the pipeline

    static List<JsonNode> pipeline(List<JsonNode> rows, ObjectNode info, boolean quirks) {
        boolean value = info.get("hasSelectValue").asBoolean();
        boolean grouped = !info.get("groupByExpressions").isEmpty();
        List<String> aggregates = strings(info.get("aggregates"));
        Map<String, String> aliasTypes = new LinkedHashMap<>();
        info.get("groupByAliasToAggregateType").properties()
                .forEach(e -> aliasTypes.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        List<String> aliases = strings(info.get("groupByAliases"));
        boolean hasAggregates = !aggregates.isEmpty() || aliasTypes.values().stream().anyMatch(Objects::nonNull);
        List<JsonNode> out = rows;
        if (hasAggregates && !grouped) {
            Group g = new Group(value, aggregates, aliasTypes, aliases);
            for (JsonNode row : out) {
                g.add(value ? row : requirePayload(row));
            }
            out = new ArrayList<>();
            JsonNode result = g.result(quirks);
            if (result != null) {
                out.add(result);
            }
        }
        String distinct = info.get("distinctType").asText();
        if (distinct.equals("Unordered")) {
            Set<Object> seen = new HashSet<>();
            List<JsonNode> kept = new ArrayList<>();
            for (JsonNode row : out) {
                if (seen.add(canonical(row))) {
                    kept.add(row);
                }
            }
            out = kept;
        } else if (distinct.equals("Ordered")) {
            List<JsonNode> kept = new ArrayList<>();
            Object last = null;
            for (JsonNode row : out) {
                Object c = canonical(row);
                if (!c.equals(last)) {
                    kept.add(row);
                }
                last = c;
            }
            out = kept;
        }
        if (grouped) {
            Map<Object, Group> groups = new LinkedHashMap<>();
            for (JsonNode row : out) {
                JsonNode items = row.get("groupByItems");
                if (items == null) {
                    throw new IllegalStateException("Underlying object does not have an 'groupByItems' field.");
                }
                groups.computeIfAbsent(canonical(items), k -> new Group(value, aggregates, aliasTypes, aliases))
                        .add(requirePayload(row));
            }
            out = new ArrayList<>();
            for (Group g : groups.values()) {
                JsonNode result = g.result(quirks);
                if (result != null) {
                    out.add(result);
                }
            }
        }
        if (!info.get("offset").isNull()) {
            out = out.subList((int) Math.min(out.size(), info.get("offset").asLong()), out.size());
        }
        if (!info.get("limit").isNull()) {
            out = out.subList(0, (int) Math.min(out.size(), info.get("limit").asLong()));
        }
        if (!info.get("top").isNull()) {
            out = out.subList(0, (int) Math.min(out.size(), info.get("top").asLong()));
        }
        JsonNode dcount = info.get("dCountInfo");
        if (dcount != null && !dcount.isNull()) {
            long n = out.size();
            JsonNode count = JsonNodeFactory.instance.numberNode(n);
            if (value) {
                out = List.of(count);
            } else {
                String alias = dcount.path("dCountAlias").asText();
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.set(alias.isEmpty() ? "$1" : alias, count);
                out = List.of(o);
            }
        }
        return new ArrayList<>(out);
    }

    private static JsonNode requirePayload(JsonNode row) {
        if (row == null || !row.has("payload")) {
            throw new IllegalStateException("Underlying object does not have an 'payload' field.");
        }
        return row.get("payload");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** SingleGroupAggregator: one group's (or the whole query's) values. */
    private static final class Group {
        private final boolean value;
        private final Aggregator valueAggregate;
        private final Map<String, Aggregator> columns = new LinkedHashMap<>();
        private final List<String> aliases;

        Group(boolean value, List<String> aggregates, Map<String, String> aliasTypes, List<String> aliases) {
            this.value = value;
            this.aliases = aliases;
            this.valueAggregate = value ? new Aggregator(aggregates.isEmpty() ? null : aggregates.get(0)) : null;
            aliasTypes.forEach((alias, type) -> columns.put(alias, new Aggregator(type)));
        }

        void add(JsonNode payload) {
            if (value) {
                // a VALUE aggregate's partial arrives as [partial] inside GROUP BY rows
                JsonNode v = valueAggregate.operator != null && payload.isArray() && payload.size() == 1
                        ? payload.get(0) : payload;
                valueAggregate.add(v);
            } else {
                for (Map.Entry<String, Aggregator> e : columns.entrySet()) {
                    e.getValue().add(payload.get(e.getKey()));
                }
            }
        }

        /** The group's row, or null for a VALUE result that is undefined (without quirks). */
        JsonNode result(boolean quirks) {
            if (value) {
                Object r = valueAggregate.result();
                if (r == UNDEFINED) {
                    return quirks ? NullNode.instance : null;
                }
                return (JsonNode) r;
            }
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (String alias : aliases) {
                Aggregator a = columns.get(alias);
                Object r = a == null ? UNDEFINED : a.result();
                if (r == UNDEFINED) {
                    if (quirks && a != null && a.operator != null) {
                        o.putObject(alias);
                    }
                } else if (r != null) {
                    o.set(alias, (JsonNode) r);
                }
            }
            return o;
        }
    }

    /** One column: a scalar (first value wins) or an SDK aggregator over partials. */
    private static final class Aggregator {
        final String operator;
        private boolean initialized;
        private Object scalar;
        private long count;
        private Double sum;
        private Object extreme = UNDEFINED;

        Aggregator(String operator) {
            this.operator = operator;
        }

        void add(JsonNode partial) {
            if (operator == null) {
                if (!initialized) {
                    scalar = partial;
                    initialized = true;
                }
                return;
            }
            JsonNode item = item(partial);
            switch (operator) {
                case "Count" -> count += Long.parseLong(Objects.requireNonNull(item, "COUNT partial").toString());
                case "Sum" -> {
                    if (item != null && !item.isNull()) {
                        sum = (sum == null ? 0 : sum) + item.doubleValue();
                    }
                }
                case "Average" -> {
                    JsonNode s = item.get("sum");
                    if (s != null && !s.isNull()) {
                        sum = (sum == null ? 0 : sum) + s.doubleValue();
                        count += item.path("count").asLong();
                    }
                }
                case "Min", "Max" -> extreme(item, operator.equals("Min") ? -1 : 1);
                default -> throw new IllegalArgumentException("Unknown aggregator type: " + operator);
            }
        }

        private void extreme(JsonNode item, int sign) {
            Object v = item;
            if (item != null && item.isObject() && item.hasNonNull("count")) {
                if (item.get("count").asLong() == 0) {
                    return;
                }
                String name = sign < 0 ? "min" : "max";
                v = item.has(name) ? (item.get(name).isNull() ? null : item.get(name)) : UNDEFINED;
            }
            if (v == UNDEFINED) {
                return;
            }
            if (extreme == UNDEFINED || Integer.signum(compareItems(v, extreme)) == sign) {
                extreme = v;
            }
        }

        /** AggregateItem: {@code item2} when non-null, else {@code item} when non-null, else null. */
        private static JsonNode item(JsonNode partial) {
            if (partial != null && partial.isObject()) {
                if (partial.hasNonNull("item2")) {
                    return partial.get("item2");
                }
                return partial.hasNonNull("item") ? partial.get("item") : null;
            }
            return partial;
        }

        Object result() {
            if (operator == null) {
                return initialized ? scalar : UNDEFINED;
            }
            return switch (operator) {
                case "Count" -> JsonNodeFactory.instance.numberNode(count);
                case "Sum" -> sum == null ? UNDEFINED : JsonNodeFactory.instance.numberNode(sum);
                case "Average" -> sum == null || count <= 0 ? UNDEFINED : JsonNodeFactory.instance.numberNode(sum / count);
                default -> extreme == null ? NullNode.instance : extreme;
            };
        }
    }

    // ------------------------------------------------------------------ comparing results

    /** JSON → comparable Java values: numbers rounded to 12 significant digits, objects as sorted maps. */
    static Object canonical(JsonNode n) {
        if (n == null) {
            return "<undefined>";
        }
        if (n.isNumber()) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return d;
            }
            BigDecimal b = n.isIntegralNumber() ? new BigDecimal(n.bigIntegerValue()) : new BigDecimal(d);
            return b.round(new MathContext(12)).stripTrailingZeros().toPlainString();
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(x -> l.add(canonical(x)));
            return l;
        }
        if (n.isObject()) {
            Map<String, Object> m = new TreeMap<>();
            n.properties().forEach(e -> m.put(e.getKey(), canonical(e.getValue())));
            return m;
        }
        if (n.isTextual()) {
            return "s:" + n.textValue();
        }
        return n.toString();
    }

    static List<Object> canonical(List<JsonNode> rows) {
        List<Object> out = new ArrayList<>();
        rows.forEach(r -> out.add(canonical(r)));
        return out;
    }

    static Map<Object, Integer> multiset(List<JsonNode> rows) {
        Map<Object, Integer> m = new LinkedHashMap<>();
        for (JsonNode r : rows) {
            m.merge(canonical(r), 1, Integer::sum);
        }
        return m;
    }
}
