package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.value.ComputedItem;
import dev.partita.sql.SqlException;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * One compiled SELECT (top level or subquery), executed push-style: FROM/JOIN sources bind slots in
 * nested loops, WHERE filters, then rows are projected directly, or sorted (ORDER BY), or grouped
 * (GROUP BY / aggregates); DISTINCT, OFFSET/LIMIT and TOP are applied last, and iteration stops as
 * soon as no more rows are wanted.
 */
public final class CompiledQuery {
    private static final long MAX_COUNT = 4294967295L;
    private static final long TOP_HEAP_LIMIT = 10_000;

    /** Receives output rows; returns false to stop the query. */
    @FunctionalInterface
    public interface Sink {
        boolean accept(JsonNode row);
    }

    @FunctionalInterface
    interface RowHandler {
        boolean row(Frame f);
    }

    /** A TOP/OFFSET/LIMIT value: a constant, or a parameter index (constant = -1 then). */
    record CountRef(long constant, int param, String what) {
        long resolve(Frame f) {
            if (param < 0) {
                return constant;
            }
            JsonNode v = f.params[param];
            if (v == null || !Num.isInteger(v) || Num.longValue(v) < 0) {
                throw new SqlException("SC2060", "The count value provided for a " + what
                        + " clause must be a non-negative integer.");
            }
            long n = Num.longValue(v);
            if (n > MAX_COUNT) {
                throw new SqlException(what.equals("LIMIT") ? "SC2061" : what.equals("OFFSET") ? "SC2062" : "SC2060",
                        "The " + what + " count value exceeds the maximum allowed value.");
            }
            return n;
        }
    }

    /** One aggregate call of the projection: its result is written to {@code slot} before projecting a group. */
    record AggSpec(Aggregate kind, Eval arg, int slot) {
    }

    /** How rows are projected. */
    sealed interface Projection {
        JsonNode project(Frame f);
    }

    record StarProjection(int slot) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            return ComputedItem.stored(f.slots[slot]);
        }
    }

    record ValueProjection(Eval value) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            return ComputedItem.stored(value.eval(f));
        }
    }

    record ObjectProjection(String[] names, Eval[] values) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (int i = 0; i < names.length; i++) {
                JsonNode v = values[i].eval(f);
                if (v != null) {
                    out.set(names[i], ComputedItem.stored(v));
                }
            }
            return out;
        }
    }

    // ------------------------------------------------------------------ the query

    private final RowSource[] sources;
    private final int[] ownSlots;
    private final Eval where;
    private final Projection projection;
    private final boolean distinct;
    private final CountRef top;
    private final CountRef offset;
    private final CountRef limit;
    private final boolean aggregate;
    private final Eval[] groupKeys;
    private final AggSpec[] aggs;
    private final Eval[] orderKeys;
    private final boolean[] descending;

    CompiledQuery(RowSource[] sources, int[] ownSlots, Eval where, Projection projection, boolean distinct,
                  CountRef top, CountRef offset, CountRef limit, boolean aggregate, Eval[] groupKeys, AggSpec[] aggs,
                  Eval[] orderKeys, boolean[] descending) {
        this.sources = sources;
        this.ownSlots = ownSlots;
        this.where = where;
        this.projection = projection;
        this.distinct = distinct;
        this.top = top;
        this.offset = offset;
        this.limit = limit;
        this.aggregate = aggregate;
        this.groupKeys = groupKeys;
        this.aggs = aggs;
        this.orderKeys = orderKeys;
        this.descending = descending;
    }

    /** Continue with source {@code index}, or, past the last source, apply WHERE and hand the row on. */
    boolean next(Frame f, int index, RowHandler h) {
        if (index == sources.length) {
            if (where != null && !Values.isTrue(where.eval(f))) {
                return true;
            }
            return h.row(f);
        }
        return sources[index].run(f, this, index, h);
    }

    /** True when some binding of the sources satisfies WHERE. */
    public boolean anyMatch(Frame f) {
        boolean[] found = {false};
        next(f, 0, fr -> {
            found[0] = true;
            return false;
        });
        return found[0];
    }

    /** Runs the query, pushing each result row to {@code out} in order. */
    public void run(Frame f, Sink out) {
        run(f, out, UndefinedAggregates.NONE);
    }

    /**
     * Runs the query with the aggregates a wider scope makes undefined (see {@link UndefinedAggregates}) undefined
     * here too, in the groups where the wider scope has them so.
     */
    public void run(Frame f, Sink out, UndefinedAggregates wider) {
        long skip = 0;
        long take = Long.MAX_VALUE;
        if (top != null) {
            take = top.resolve(f);
        }
        if (offset != null) {
            skip = offset.resolve(f);
            take = Math.min(take, limit.resolve(f));
        }
        if (take == 0) {
            return;
        }
        Emitter em = new Emitter(out, distinct, skip, take);
        if (aggregate) {
            runGrouped(f, em, withEmptyGroup(f, groups(f)), wider);
        } else if (orderKeys != null) {
            // rows beyond OFFSET+LIMIT/TOP can be discarded early only when every row yields output
            // (no DISTINCT, and no SELECT VALUE whose undefined rows are dropped)
            boolean everyRowEmits = !distinct && !(projection instanceof ValueProjection);
            long keep = everyRowEmits && skip + take >= 0 ? skip + take : Long.MAX_VALUE;
            runOrdered(f, em, keep);
        } else {
            next(f, 0, fr -> em.emit(projection.project(fr)));
        }
    }

    /**
     * ORDER BY: evaluates the sort keys of every row and keeps a copy of its slots; when only the first
     * {@code keep} rows can be returned (TOP / OFFSET+LIMIT without DISTINCT) a bounded heap keeps just those.
     * <p>
     * Rows with equal keys come in the order of their item's {@code _rid} document number, ascending when the
     * first key is ascending and descending when it is descending, as the service's index returns them (the SDKs
     * rely on it to resume cross-partition ORDER BY queries: query-plans.md §2.1, §3.2); rows without a readable
     * {@code _rid} come after those with one, in input order.
     */
    private void runOrdered(Frame f, Emitter em, long keep) {
        Comparator<SortRow> order = (a, b) -> {
            for (int i = 0; i < descending.length; i++) {
                int c = Values.compareTotal(a.keys[i], b.keys[i]);
                if (c != 0) {
                    return descending[i] ? -c : c;
                }
            }
            if (a.rid != null && b.rid != null) {
                int c = Long.compare(a.rid, b.rid);
                if (c != 0) {
                    return descending[0] ? -c : c;
                }
            } else if (a.rid != null || b.rid != null) {
                return a.rid != null ? -1 : 1;
            }
            return Long.compare(a.seq, b.seq);
        };
        int itemSlot = sources.length == 0 ? -1 : sources[0].itemSlot();
        List<SortRow> rows;
        if (keep <= TOP_HEAP_LIMIT) {
            PriorityQueue<SortRow> heap = new PriorityQueue<>((int) keep + 1, order.reversed());
            long[] seq = {0};
            next(f, 0, fr -> {
                SortRow r = new SortRow(sortKeys(fr), seq[0]++, documentNumber(fr, itemSlot), null);
                if (heap.size() < keep) {
                    heap.add(new SortRow(r.keys, r.seq, r.rid, fr.slots.clone()));
                } else if (order.compare(r, heap.peek()) < 0) {
                    heap.poll();
                    heap.add(new SortRow(r.keys, r.seq, r.rid, fr.slots.clone()));
                }
                return true;
            });
            rows = new ArrayList<>(heap);
        } else {
            List<SortRow> all = new ArrayList<>();
            long[] seq = {0};
            next(f, 0, fr -> {
                all.add(new SortRow(sortKeys(fr), seq[0]++, documentNumber(fr, itemSlot), fr.slots.clone()));
                return true;
            });
            rows = all;
        }
        rows.sort(order);
        for (SortRow r : rows) {
            System.arraycopy(r.slots, 0, f.slots, 0, r.slots.length);
            if (!em.emit(projection.project(f))) {
                return;
            }
        }
    }

    private JsonNode[] sortKeys(Frame f) {
        JsonNode[] keys = new JsonNode[orderKeys.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = orderKeys[i].eval(f);
        }
        return keys;
    }

    /** The document number of the row's item {@code _rid} (as the SDKs read it), or null. */
    private static Long documentNumber(Frame f, int itemSlot) {
        if (itemSlot < 0 || f.slots[itemSlot] == null) {
            return null;
        }
        JsonNode rid = f.slots[itemSlot].get("_rid");
        return rid != null && rid.isTextual() ? Rids.documentNumber(rid.textValue()) : null;
    }

    private record SortRow(JsonNode[] keys, long seq, Long rid, JsonNode[] slots) {
    }

    private static final class Group {
        final JsonNode[] slots;
        final Aggregate.Accumulator[] accumulators;

        Group(JsonNode[] slots, AggSpec[] aggs) {
            this(slots, newAccumulators(aggs));
        }

        Group(JsonNode[] slots, Aggregate.Accumulator[] accumulators) {
            this.slots = slots;
            this.accumulators = accumulators;
        }
    }

    static Aggregate.Accumulator[] newAccumulators(AggSpec[] aggs) {
        Aggregate.Accumulator[] out = new Aggregate.Accumulator[aggs.length];
        for (int i = 0; i < aggs.length; i++) {
            out[i] = aggs[i].kind().newAccumulator();
        }
        return out;
    }

    private static final Key NO_KEY = new Key(new JsonNode[0]);

    /** True when an aggregate of the projection is SUM, AVG, MIN or MAX (see {@link UndefinedAggregates}). */
    public boolean hasTypeSensitiveAggregates() {
        for (AggSpec a : aggs) {
            switch (a.kind()) {
                case SUM, AVG, MIN, MAX -> {
                    return true;
                }
                default -> {
                }
            }
        }
        return false;
    }

    /** True when every aggregate of the projection is COUNT (or there is none): shares of it add up. */
    public boolean countsOnly() {
        for (AggSpec a : aggs) {
            if (a.kind() != Aggregate.COUNT) {
                return false;
            }
        }
        return true;
    }

    /**
     * The aggregates these items make undefined for good, per group (the scope pass of a cross-partition range: see
     * {@link UndefinedAggregates}); none for a query without aggregates.
     */
    public UndefinedAggregates undefinedAggregates(Frame f, UndefinedAggregates.RowRules rules) {
        if (!aggregate) {
            return UndefinedAggregates.NONE;
        }
        return undefinedAggregates(f, withEmptyGroup(f, groups(f)), rules);
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

    private void runGrouped(Frame f, Emitter em, Map<Key, Group> groups, UndefinedAggregates wider) {
        for (Map.Entry<Key, Group> e : groups.entrySet()) {
            Group g = e.getValue();
            wider.align(e.getKey(), g.accumulators);
            JsonNode row = wider.sent(e.getKey(), groupRow(f, g));
            if (row != null && !em.emit(row)) {
                return;
            }
        }
    }

    /** An aggregate over no rows still yields one row (COUNT 0, SUM 0, others undefined). */
    private Map<Key, Group> withEmptyGroup(Frame f, Map<Key, Group> groups) {
        if (groupKeys.length == 0 && groups.isEmpty()) {
            groups.put(NO_KEY, new Group(emptySlots(f), aggs));
        }
        return groups;
    }

    /** The slots of a row bound to no item: this query's own aliases unset. */
    private JsonNode[] emptySlots(Frame f) {
        JsonNode[] slots = f.slots.clone();
        for (int s : ownSlots) {
            slots[s] = null;
        }
        return slots;
    }

    // ---- an aggregate query's running state carried across pages (see AggregateState)

    /**
     * True for an aggregate query without GROUP BY whose aggregates keep a small state: its one group is the state
     * of its accumulators, which a page can hand on to the next.
     */
    public boolean carriesAggregates() {
        if (!aggregate || groupKeys.length > 0) {
            return false;
        }
        for (AggSpec a : aggs) {
            if (!a.kind().carriesState()) {
                return false;
            }
        }
        return true;
    }

    Aggregate.Accumulator[] newAccumulators() {
        return newAccumulators(aggs);
    }

    /** The aggregate calls of the projection, in order ({@link AggregateState} feeds their accumulators). */
    AggSpec[] aggs() {
        return aggs;
    }

    /**
     * The row of the accumulated {@code local} state, judged as {@link #run(Frame, Sink, UndefinedAggregates)}
     * judges a range: by the whole scope's state {@code whole}, or by {@code rules} alone when the range is the whole
     * scope ({@code whole} null); with neither, as it is.
     */
    void runCarried(Frame f, Sink out, Aggregate.Accumulator[] local, Aggregate.Accumulator[] whole,
            UndefinedAggregates.RowRules rules) {
        UndefinedAggregates wider = whole == null ? UndefinedAggregates.wholeScope(rules)
                : undefinedAggregates(f, Map.of(NO_KEY, new Group(emptySlots(f), whole)), rules);
        runGrouped(f, new Emitter(out, false, 0, Long.MAX_VALUE), Map.of(NO_KEY, new Group(emptySlots(f), local)),
                wider);
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
        return groupKeys.length == 0 ? row : Num.integralAsInteger(row);
    }

    /** The rows grouped by the GROUP BY keys (one group without them), with every aggregate accumulated. */
    private Map<Key, Group> groups(Frame f) {
        Map<Key, Group> groups = new LinkedHashMap<>();
        next(f, 0, fr -> {
            Key key = NO_KEY;
            if (groupKeys.length > 0) {
                JsonNode[] k = new JsonNode[groupKeys.length];
                for (int i = 0; i < k.length; i++) {
                    k[i] = groupKeys[i].eval(fr);
                }
                key = new Key(k);
            }
            Group g = groups.get(key);
            if (g == null) {
                g = new Group(fr.slots.clone(), aggs);
                groups.put(key, g);
            }
            for (int i = 0; i < aggs.length; i++) {
                g.accumulators[i].add(aggs[i].arg().eval(fr));
            }
            return true;
        });
        return groups;
    }

    /** Applies DISTINCT, OFFSET and LIMIT/TOP, dropping undefined rows. */
    private static final class Emitter {
        private final Sink out;
        private final Set<Key> seen;
        private long skip;
        private long remaining;

        Emitter(Sink out, boolean distinct, long skip, long take) {
            this.out = out;
            this.seen = distinct ? new HashSet<>() : null;
            this.skip = skip;
            this.remaining = take;
        }

        boolean emit(JsonNode row) {
            if (row == null) {
                return true;
            }
            if (seen != null && !seen.add(Key.of(row))) {
                return true;
            }
            if (skip > 0) {
                skip--;
                return true;
            }
            remaining--;
            boolean more = out.accept(row);
            return more && remaining > 0;
        }
    }

}
