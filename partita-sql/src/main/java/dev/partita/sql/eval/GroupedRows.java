package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Num;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The GROUP BY and aggregates of one compiled SELECT: its rows grouped by their keys (one group without keys), each
 * group's aggregates accumulated, and one output row per group, judged by what a wider scope makes undefined
 * ({@link UndefinedAggregates}). The select list reads the GROUP BY expressions from their keys' slots, so without a
 * subquery in it a group's row is its key's and its aggregates' alone: a group carried across pages
 * ({@link AggregateState}) is its key and its accumulators.
 */
final class GroupedRows {
    /** The one group of an aggregate query without GROUP BY. */
    static final Key NO_KEY = new Key(new JsonNode[0]);

    private final CompiledQuery.GroupKeys keys;
    private final CompiledQuery.AggSpec[] aggs;
    private final Projection projection;
    /** The query's own aliases: unset in the row of a group known by its key alone. */
    private final int[] ownSlots;

    GroupedRows(CompiledQuery.GroupKeys keys, CompiledQuery.AggSpec[] aggs, Projection projection, int[] ownSlots) {
        this.keys = keys;
        this.aggs = aggs;
        this.projection = projection;
        this.ownSlots = ownSlots;
    }

    /** One group: the slots of its row (its first row's), and its aggregates' accumulators. */
    private record Group(JsonNode[] slots, Aggregate.Accumulator[] accumulators) {
    }

    /** Fresh accumulators, one per aggregate call of the projection. */
    Aggregate.Accumulator[] newAccumulators() {
        Aggregate.Accumulator[] out = new Aggregate.Accumulator[aggs.length];
        for (int i = 0; i < aggs.length; i++) {
            out[i] = aggs[i].kind().newAccumulator();
        }
        return out;
    }

    /** True when the query has GROUP BY keys. */
    boolean hasKeys() {
        return keys.size() > 0;
    }

    /** How many GROUP BY keys the query has. */
    int keyCount() {
        return keys.size();
    }

    /** Runs the query's rows into their groups and emits one row per group. */
    void run(CompiledQuery q, Frame f, Emitter em, UndefinedAggregates wider) {
        emit(f, em, groups(q, f), wider);
    }

    /** The aggregates these rows make undefined for good, per group (see {@link UndefinedAggregates}). */
    UndefinedAggregates undefinedAggregates(CompiledQuery q, Frame f, UndefinedAggregates.RowRules rules) {
        return undefinedIn(f, groups(q, f), rules);
    }

    private UndefinedAggregates undefinedIn(Frame f, Map<Key, Group> groups,
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

    // ---- groups carried across pages (see AggregateState)

    /**
     * Adds the rows of the frame's items to carried groups: to the whole scope's ({@code whole}, when there is one),
     * and to the range's ({@code local}) for the rows of an item {@code isLocal} says is the range's own (it is asked
     * about the item the frame's items last returned).
     */
    void accumulate(CompiledQuery q, Frame f, Map<Key, Aggregate.Accumulator[]> local,
            Map<Key, Aggregate.Accumulator[]> whole, BooleanSupplier isLocal) {
        q.next(f, 0, fr -> {
            Key key = keyOf(fr);
            boolean own = isLocal.getAsBoolean();
            Aggregate.Accumulator[] w = whole == null ? null : whole.computeIfAbsent(key, k -> newAccumulators());
            Aggregate.Accumulator[] l = own ? local.computeIfAbsent(key, k -> newAccumulators()) : null;
            for (int i = 0; i < aggs.length; i++) {
                JsonNode v = aggs[i].arg().eval(fr);
                if (w != null) {
                    w[i].add(v);
                }
                if (l != null) {
                    l[i].add(v);
                }
            }
            return true;
        });
    }

    /**
     * The rows of the carried {@code local} groups, judged as a range is: by the whole scope's groups {@code whole},
     * or by {@code rules} alone when the range is the whole scope ({@code whole} null); with neither, as they are.
     */
    void runCarried(Frame f, CompiledQuery.Sink out, Map<Key, Aggregate.Accumulator[]> local,
            Map<Key, Aggregate.Accumulator[]> whole, UndefinedAggregates.RowRules rules) {
        runJudged(f, out, local, whole == null ? UndefinedAggregates.wholeScope(rules)
                : undefinedAggregates(f, whole, rules));
    }

    /** The rows of the carried {@code local} groups, judged by what the whole scope makes undefined. */
    void runJudged(Frame f, CompiledQuery.Sink out, Map<Key, Aggregate.Accumulator[]> local,
            UndefinedAggregates wider) {
        emit(f, new Emitter(out, false, 0, Long.MAX_VALUE), carried(f, local), wider);
    }

    /** What carried groups (a whole scope's) make undefined for good, per group. */
    UndefinedAggregates undefinedAggregates(Frame f, Map<Key, Aggregate.Accumulator[]> groups,
            UndefinedAggregates.RowRules rules) {
        return undefinedIn(f, carried(f, groups), rules);
    }

    /**
     * The row of a page that carries its groups on: the partials of nothing, which both SDKs' merges skip (COUNT 0,
     * AVG and MIN/MAX over no value, SUM undefined rather than 0: a sum of 0 would count for the Java SumAggregator),
     * in a group the SDKs show anyway. Without GROUP BY that is the one group. With it, a group of the whole scope
     * {@code wider} does not leave out, without the members it leaves out of that group's rows: the SDKs make a group
     * of every key they meet, take its plain values from its first row, and the JS SDK fails on a row with a member
     * its group's first row lacked (GroupByEndpointComponent). None while the whole scope is not known (null).
     */
    void runNeutral(Frame f, CompiledQuery.Sink out, UndefinedAggregates wider) {
        Aggregate.Accumulator[] none = newAccumulators();
        for (int i = 0; i < aggs.length; i++) {
            if (aggs[i].kind() == Aggregate.SUM) {
                none[i].makeUndefined();
            }
        }
        if (!hasKeys()) {
            // a VALUE aggregate's partials of nothing are no row unless rewritten into partials
            JsonNode row = groupRow(f, new Group(emptySlots(f), none));
            if (row != null) {
                out.accept(row);
            }
            return;
        }
        if (wider == null) {
            return;
        }
        for (Key k : wider.groups()) {
            JsonNode row = wider.sent(k, groupRow(f, new Group(slotsOf(f, k), none)));
            if (row != null) {
                out.accept(row);
                return;
            }
        }
    }

    /** Carried groups as groups: their rows' slots are their keys'. */
    private Map<Key, Group> carried(Frame f, Map<Key, Aggregate.Accumulator[]> groups) {
        Map<Key, Group> out = new LinkedHashMap<>();
        groups.forEach((k, acc) -> out.put(k, new Group(slotsOf(f, k), acc)));
        return out;
    }

    /** The slots of a group's row known by its key alone: no item bound, the key in its slots. */
    private JsonNode[] slotsOf(Frame f, Key key) {
        JsonNode[] slots = emptySlots(f);
        for (int i = 0; i < keys.size(); i++) {
            slots[keys.slots()[i]] = key.values()[i];
        }
        return slots;
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
        return hasKeys() ? Num.integralAsInteger(row) : row;
    }

    /**
     * The rows grouped by the GROUP BY keys, with every aggregate accumulated; without keys, one group even over no
     * rows (an aggregate over nothing still yields a row: COUNT 0, SUM 0, others undefined).
     */
    private Map<Key, Group> groups(CompiledQuery q, Frame f) {
        Map<Key, Group> groups = new LinkedHashMap<>();
        q.next(f, 0, fr -> {
            Key key = keyOf(fr);
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
        if (!hasKeys() && groups.isEmpty()) {
            groups.put(NO_KEY, new Group(emptySlots(f), newAccumulators()));
        }
        return groups;
    }

    /** The row's group key; its values are set in the key slots the select list reads too. */
    private Key keyOf(Frame f) {
        if (!hasKeys()) {
            return NO_KEY;
        }
        JsonNode[] k = new JsonNode[keys.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = keys.exprs()[i].eval(f);
            f.slots[keys.slots()[i]] = k[i];
        }
        return new Key(k);
    }
}
