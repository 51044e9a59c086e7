package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Num;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The GROUP BY and aggregates of one compiled SELECT: its rows grouped by their keys (one group without keys), each
 * group's aggregates accumulated, and one output row per group, judged by what a wider scope makes undefined
 * ({@link UndefinedAggregates}).
 */
final class GroupedRows {
    private static final Key NO_KEY = new Key(new JsonNode[0]);

    private final Eval[] keys;
    private final CompiledQuery.AggSpec[] aggs;
    private final Projection projection;
    /** The query's own aliases: unset in the row of an aggregate over no items. */
    private final int[] ownSlots;

    GroupedRows(Eval[] keys, CompiledQuery.AggSpec[] aggs, Projection projection, int[] ownSlots) {
        this.keys = keys;
        this.aggs = aggs;
        this.projection = projection;
        this.ownSlots = ownSlots;
    }

    /** One group: the slots of its first row, and its aggregates' accumulators. */
    private static final class Group {
        final JsonNode[] slots;
        final Aggregate.Accumulator[] accumulators;

        Group(JsonNode[] slots, Aggregate.Accumulator[] accumulators) {
            this.slots = slots;
            this.accumulators = accumulators;
        }
    }

    /** Fresh accumulators, one per aggregate call of the projection. */
    Aggregate.Accumulator[] newAccumulators() {
        Aggregate.Accumulator[] out = new Aggregate.Accumulator[aggs.length];
        for (int i = 0; i < aggs.length; i++) {
            out[i] = aggs[i].kind().newAccumulator();
        }
        return out;
    }

    /** Runs the query's rows into their groups and emits one row per group. */
    void run(CompiledQuery q, Frame f, Emitter em, UndefinedAggregates wider) {
        emit(f, em, groups(q, f), wider);
    }

    /** The aggregates these rows make undefined for good, per group (see {@link UndefinedAggregates}). */
    UndefinedAggregates undefinedAggregates(CompiledQuery q, Frame f, UndefinedAggregates.RowRules rules) {
        return undefinedAggregates(f, groups(q, f), rules);
    }

    private UndefinedAggregates undefinedAggregates(Frame f, Map<Key, Group> groups,
            UndefinedAggregates.RowRules rules) {
        Map<Key, boolean[]> out = new HashMap<>();
        Map<Key, JsonNode[]> results = new HashMap<>();
        Map<Key, Set<String>> hidden = new HashMap<>();
        for (Map.Entry<Key, Group> e : groups.entrySet()) {
            Aggregate.Accumulator[] acc = e.getValue().accumulators;
            boolean[] flags = new boolean[acc.length];
            JsonNode[] values = new JsonNode[acc.length];
            boolean any = false;
            for (int i = 0; i < acc.length; i++) {
                flags[i] = acc[i].undefinedForGood();
                values[i] = acc[i].result();
                any |= flags[i];
            }
            if (any) {
                out.put(e.getKey(), flags);
            }
            results.put(e.getKey(), values);
            hidden.put(e.getKey(), UndefinedAggregates.hiddenOf(rules, groupRow(f, e.getValue())));
        }
        return new UndefinedAggregates(out, results, hidden, rules);
    }

    private void emit(Frame f, Emitter em, Map<Key, Group> groups, UndefinedAggregates wider) {
        for (Map.Entry<Key, Group> e : groups.entrySet()) {
            Group g = e.getValue();
            wider.align(e.getKey(), g.accumulators);
            JsonNode row = wider.sent(e.getKey(), groupRow(f, g));
            if (row != null && !em.emit(row)) {
                return;
            }
        }
    }

    /**
     * The row of the accumulated {@code local} state of a query without GROUP BY, judged as a range is: by the whole
     * scope's state {@code whole}, or by {@code rules} alone when the range is the whole scope ({@code whole} null);
     * with neither, as it is.
     */
    void runCarried(Frame f, CompiledQuery.Sink out, Aggregate.Accumulator[] local, Aggregate.Accumulator[] whole,
            UndefinedAggregates.RowRules rules) {
        UndefinedAggregates wider = whole == null ? UndefinedAggregates.wholeScope(rules)
                : undefinedAggregates(f, Map.of(NO_KEY, new Group(emptySlots(f), whole)), rules);
        emit(f, new Emitter(out, false, 0, Long.MAX_VALUE), Map.of(NO_KEY, new Group(emptySlots(f), local)), wider);
    }

    /** The slots of a row bound to no item: this query's own aliases unset. */
    private JsonNode[] emptySlots(Frame f) {
        JsonNode[] slots = f.slots.clone();
        for (int s : ownSlots) {
            slots[s] = null;
        }
        return slots;
    }

    /**
     * The group's row. It prints its key the same way whichever item came first (1.0 as 1): the SDKs merge the
     * ranges' rows of a group by the key's JSON.
     */
    private JsonNode groupRow(Frame f, Group g) {
        System.arraycopy(g.slots, 0, f.slots, 0, g.slots.length);
        for (int i = 0; i < aggs.length; i++) {
            f.slots[aggs[i].slot()] = g.accumulators[i].result();
        }
        JsonNode row = projection.project(f);
        return keys.length == 0 ? row : Num.integralAsInteger(row);
    }

    /**
     * The rows grouped by the GROUP BY keys, with every aggregate accumulated; without keys, one group even over no
     * rows (an aggregate over nothing still yields a row: COUNT 0, SUM 0, others undefined).
     */
    private Map<Key, Group> groups(CompiledQuery q, Frame f) {
        Map<Key, Group> groups = new LinkedHashMap<>();
        q.next(f, 0, fr -> {
            Key key = NO_KEY;
            if (keys.length > 0) {
                JsonNode[] k = new JsonNode[keys.length];
                for (int i = 0; i < k.length; i++) {
                    k[i] = keys[i].eval(fr);
                }
                key = new Key(k);
            }
            Group g = groups.get(key);
            if (g == null) {
                g = new Group(fr.slots.clone(), newAccumulators());
                groups.put(key, g);
            }
            for (int i = 0; i < aggs.length; i++) {
                g.accumulators[i].add(aggs[i].arg().eval(fr));
            }
            return true;
        });
        if (keys.length == 0 && groups.isEmpty()) {
            groups.put(NO_KEY, new Group(emptySlots(f), newAccumulators()));
        }
        return groups;
    }
}
