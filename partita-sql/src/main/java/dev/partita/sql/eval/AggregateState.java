package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The running state of an aggregate query over the items read so far ({@link CompiledQuery#carriesAggregates}): its
 * groups (the one group without GROUP BY), each its key and its accumulators. A page that ends at the request's
 * deadline hands it on in its continuation and answers the partials of nothing ({@link #emitNeutral}), and the page
 * that reads the last item answers the rows of the whole read. A SUM, AVG, MIN or MAX share cannot be answered part
 * by part as COUNT's is: the SDKs skip an undefined share (the Java SumAggregator, AverageAggregator and
 * Min/MaxAggregator of azure-cosmos 4.81, the JS SDK's aggregators), so a part that met a string would not make the
 * sum undefined after an earlier part answered a number, and the JS SDK cannot compare two parts' MIN/MAX when one
 * is null. That holds for the parts of one group across pages as across ranges: the SDKs' GROUP BY pipelines merge a
 * group's rows with the same aggregators (the Java GroupingTable and SingleGroupAggregator, the JS
 * GroupByEndpointComponent).
 * <p>
 * {@code whole} is the state over the whole scope of a cross-partition query without GROUP BY, for a range that is
 * only part of it: what it makes undefined is undefined in the range's row too (see {@link UndefinedAggregates}). A
 * GROUP BY's range judges its groups by a pass over the whole scope that every range's pages share instead
 * ({@link #pass}): a page's row must be in a group the SDKs show, which only the whole scope tells.
 */
public final class AggregateState {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<Key, Aggregate.Accumulator[]> local;
    private final Map<Key, Aggregate.Accumulator[]> whole;
    /** For a GROUP BY's range that is part of its scope: the data version the whole scope's pass began at. */
    private final Long pass;

    private AggregateState(Map<Key, Aggregate.Accumulator[]> local, Map<Key, Aggregate.Accumulator[]> whole,
            Long pass) {
        this.local = local;
        this.whole = whole;
        this.pass = pass;
    }

    /** The state of a GROUP BY's range before any item, judged by the whole scope's pass begun at {@code pass}. */
    public static AggregateState judgedByPass(long pass) {
        return new AggregateState(new LinkedHashMap<>(), null, pass);
    }

    /** The data version of the whole scope's pass this range's groups are judged by, or null. */
    public Long pass() {
        return pass;
    }

    /** The state before any item; with {@code wholeToo}, the whole scope's beside the range's. */
    public static AggregateState start(CompiledQuery q, boolean wholeToo) {
        AggregateState s = new AggregateState(new LinkedHashMap<>(), wholeToo ? new LinkedHashMap<>() : null, null);
        if (!q.grouped().hasKeys()) {
            s.local.put(GroupedRows.NO_KEY, q.grouped().newAccumulators());
            if (wholeToo) {
                s.whole.put(GroupedRows.NO_KEY, q.grouped().newAccumulators());
            }
        }
        return s;
    }

    /** True when this state carries the whole scope's beside the range's. */
    public boolean hasWhole() {
        return whole != null;
    }

    /**
     * Adds the rows of the frame's items: to the whole scope's state, and to the range's for the rows of an item
     * {@code isLocal} says is the range's own (it is asked about the item the frame's items last returned).
     */
    public void accumulate(CompiledQuery q, Frame f, BooleanSupplier isLocal) {
        q.grouped().accumulate(q, f, local, whole, isLocal);
    }

    /** The rows of the whole read, as a range answers them (none that the rules leave out). */
    public void emit(CompiledQuery q, Frame f, CompiledQuery.Sink out, UndefinedAggregates.RowRules rules) {
        q.grouped().runCarried(f, out, local, whole, rules);
    }

    /** The rows of the range's groups, judged by what the whole scope makes undefined ({@link #pass}'s answer). */
    public void emit(CompiledQuery q, Frame f, CompiledQuery.Sink out, UndefinedAggregates wider) {
        q.grouped().runJudged(f, out, local, wider);
    }

    /**
     * The row of a page that carries the state on: the partials of nothing ({@link GroupedRows#runNeutral}), in a
     * group {@code wider} (the whole scope's pass, when known) shows. A page with no row would not do once the SDK
     * holds a row: the JS SDK's aggregate and GROUP BY pipelines end at a fetch whose pages were all empty
     * (GroupByValueEndpointComponent and GroupByEndpointComponent.fetchMore in @azure/cosmos 4.10.1). Before any
     * range has a row, none does: a GROUP BY over one range answers only on its last page, one over several ranges
     * only once the whole scope's pass is done.
     */
    public static void emitNeutral(CompiledQuery q, Frame f, CompiledQuery.Sink out, UndefinedAggregates wider) {
        q.grouped().runNeutral(f, out, wider);
    }

    /** What this state's groups (read over a whole scope) make undefined for good, per group. */
    public UndefinedAggregates undefinedAggregates(CompiledQuery q, Frame f, UndefinedAggregates.RowRules rules) {
        return q.grouped().undefinedAggregates(f, local, rules);
    }

    /**
     * The state as a token part: base64url of {@code {"l": [groups], "w": [groups], "p": pass}}, a group
     * {@code [[key values], [states]]} with each key value {@code [v]}, or {@code []} when undefined.
     */
    public String encode() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("l", groups(local));
        if (whole != null) {
            o.set("w", groups(whole));
        }
        if (pass != null) {
            o.put("p", pass);
        }
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(o));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The state {@link #encode()} wrote for this query; IllegalArgumentException for any other text. */
    public static AggregateState decode(CompiledQuery q, String text) {
        JsonNode o;
        try {
            o = JSON.readTree(Base64.getUrlDecoder().decode(text));
        } catch (IOException e) {
            throw new IllegalArgumentException("aggregate state", e);
        }
        if (o == null || !o.isObject() || !o.has("l") || o.has("p") && (!o.get("p").canConvertToExactIntegral()
                || o.has("w") || !q.grouped().hasKeys())) {
            throw new IllegalArgumentException("aggregate state");
        }
        return new AggregateState(restore(q, o.get("l")), o.has("w") ? restore(q, o.get("w")) : null,
                o.has("p") ? o.get("p").longValue() : null);
    }

    private static ArrayNode groups(Map<Key, Aggregate.Accumulator[]> groups) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ArrayNode out = nodes.arrayNode();
        groups.forEach((key, accumulators) -> {
            ArrayNode values = nodes.arrayNode();
            for (JsonNode v : key.values()) {
                values.add(v == null ? nodes.arrayNode() : nodes.arrayNode().add(v));
            }
            ArrayNode states = nodes.arrayNode();
            for (Aggregate.Accumulator acc : accumulators) {
                states.add(acc.state());
            }
            out.add(nodes.arrayNode().add(values).add(states));
        });
        return out;
    }

    private static Map<Key, Aggregate.Accumulator[]> restore(CompiledQuery q, JsonNode groups) {
        GroupedRows grouped = q.grouped();
        int keys = grouped.keyCount();
        if (!groups.isArray()) {
            throw new IllegalArgumentException("aggregate state");
        }
        Map<Key, Aggregate.Accumulator[]> out = new LinkedHashMap<>();
        for (JsonNode group : groups) {
            if (!group.isArray() || group.size() != 2 || !group.get(0).isArray() || group.get(0).size() != keys) {
                throw new IllegalArgumentException("aggregate state");
            }
            JsonNode[] values = new JsonNode[keys];
            for (int i = 0; i < keys; i++) {
                JsonNode v = group.get(0).get(i);
                if (!v.isArray() || v.size() > 1) {
                    throw new IllegalArgumentException("aggregate state");
                }
                values[i] = v.size() == 1 ? v.get(0) : null;
            }
            Aggregate.Accumulator[] accumulators = grouped.newAccumulators();
            JsonNode states = group.get(1);
            if (!states.isArray() || states.size() != accumulators.length) {
                throw new IllegalArgumentException("aggregate state");
            }
            for (int i = 0; i < accumulators.length; i++) {
                accumulators[i].restore(states.get(i));
            }
            if (out.put(new Key(values), accumulators) != null) {
                throw new IllegalArgumentException("aggregate state");
            }
        }
        // without GROUP BY the one group is always there
        if (keys == 0 && out.size() != 1) {
            throw new IllegalArgumentException("aggregate state");
        }
        return out;
    }
}
