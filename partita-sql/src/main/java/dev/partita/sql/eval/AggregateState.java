package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Base64;
import java.util.function.BooleanSupplier;

/**
 * The running state of an aggregate query without GROUP BY over the items read so far ({@link
 * CompiledQuery#carriesAggregates}): a page that ends at the request's deadline hands it on in its continuation and
 * answers the partials of nothing ({@link #emitNeutral}), and the page that reads the last item answers the one row
 * of the whole read. A SUM, AVG, MIN or MAX share cannot be answered part by part as COUNT's is: the SDKs skip an undefined share (the Java
 * SumAggregator, AverageAggregator and Min/MaxAggregator of azure-cosmos 4.81), so a part that met a string would
 * not make the sum undefined after an earlier part answered a number, and the JS SDK cannot compare two parts'
 * MIN/MAX when one is null.
 * <p>
 * {@code whole} is the state over the whole scope of a cross-partition query, for a range that is only part of it:
 * what it makes undefined is undefined in the range's row too (see {@link UndefinedAggregates}).
 */
public final class AggregateState {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Aggregate.Accumulator[] local;
    private final Aggregate.Accumulator[] whole;

    private AggregateState(Aggregate.Accumulator[] local, Aggregate.Accumulator[] whole) {
        this.local = local;
        this.whole = whole;
    }

    /** The state before any item; with {@code wholeToo}, the whole scope's beside the range's. */
    public static AggregateState start(CompiledQuery q, boolean wholeToo) {
        return new AggregateState(q.newAccumulators(), wholeToo ? q.newAccumulators() : null);
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
        CompiledQuery.AggSpec[] aggs = q.aggs();
        q.next(f, 0, fr -> {
            boolean own = isLocal.getAsBoolean();
            for (int i = 0; i < aggs.length; i++) {
                JsonNode v = aggs[i].arg().eval(fr);
                if (whole != null) {
                    whole[i].add(v);
                }
                if (own) {
                    local[i].add(v);
                }
            }
            return true;
        });
    }

    /** The row of the whole read, as a range answers it (none when the rules leave it out). */
    public void emit(CompiledQuery q, Frame f, CompiledQuery.Sink out, UndefinedAggregates.RowRules rules) {
        q.runCarried(f, out, local, whole, rules);
    }

    /**
     * The row of a page that carries the state on: the partials of nothing, which both SDKs' merges skip (COUNT 0,
     * AVG and MIN/MAX over no value, SUM undefined rather than 0: a sum of 0 would count for the Java SumAggregator).
     * A page with no row would not do: the JS SDK's aggregate pipeline ends at a fetch whose pages were all empty
     * once it holds a row (GroupByValueEndpointComponent.fetchMore in @azure/cosmos 4.10.1).
     */
    public static void emitNeutral(CompiledQuery q, Frame f, CompiledQuery.Sink out) {
        Aggregate.Accumulator[] none = q.newAccumulators();
        CompiledQuery.AggSpec[] aggs = q.aggs();
        for (int i = 0; i < aggs.length; i++) {
            if (aggs[i].kind() == Aggregate.SUM) {
                none[i].makeUndefined();
            }
        }
        q.runCarried(f, out, none, null, null);
    }

    /** The state as a token part: base64url of {@code {"l": [states], "w": [states]}}. */
    public String encode() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("l", states(local));
        if (whole != null) {
            o.set("w", states(whole));
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
        if (o == null || !o.isObject() || !o.has("l")) {
            throw new IllegalArgumentException("aggregate state");
        }
        AggregateState s = start(q, o.has("w"));
        restore(s.local, o.get("l"));
        if (s.whole != null) {
            restore(s.whole, o.get("w"));
        }
        return s;
    }

    private static ArrayNode states(Aggregate.Accumulator[] accumulators) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (Aggregate.Accumulator acc : accumulators) {
            a.add(acc.state());
        }
        return a;
    }

    private static void restore(Aggregate.Accumulator[] accumulators, JsonNode states) {
        if (!states.isArray() || states.size() != accumulators.length) {
            throw new IllegalArgumentException("aggregate state");
        }
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i].restore(states.get(i));
        }
    }
}
