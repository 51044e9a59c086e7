package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

/**
 * One compiled SELECT (top level or subquery), executed push-style: FROM/JOIN sources bind slots in
 * nested loops, WHERE filters, then rows are projected directly, or sorted (ORDER BY), or grouped
 * (GROUP BY / aggregates); DISTINCT, OFFSET/LIMIT and TOP are applied last, and iteration stops as
 * soon as no more rows are wanted. The sorting is {@link OrderedRows}'s, the grouping {@link GroupedRows}'s, the
 * last steps {@link Emitter}'s.
 */
public final class CompiledQuery {
    private static final long MAX_COUNT = 4294967295L;

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

    /** The GROUP BY expressions, and the slots the select list reads them from (see {@link GroupedRows}). */
    record GroupKeys(Eval[] exprs, int[] slots) {
        int size() {
            return exprs.length;
        }
    }

    /** One aggregate call of the projection: its result is written to {@code slot} before projecting a group. */
    record AggSpec(Aggregate kind, Eval arg, int slot) {
    }

    // ------------------------------------------------------------------ the query

    private final RowSource[] sources;
    private final Eval where;
    private final Projection projection;
    private final boolean distinct;
    private final CountRef top;
    private final CountRef offset;
    private final CountRef limit;
    private final boolean aggregate;
    private final AggSpec[] aggs;
    private final GroupedRows grouped;
    private final OrderedRows ordered;

    CompiledQuery(RowSource[] sources, int[] ownSlots, Eval where, Projection projection, boolean distinct,
                  CountRef top, CountRef offset, CountRef limit, boolean aggregate, GroupKeys groupKeys, AggSpec[] aggs,
                  Eval[] orderKeys, boolean[] descending) {
        this.sources = sources;
        this.where = where;
        this.projection = projection;
        this.distinct = distinct;
        this.top = top;
        this.offset = offset;
        this.limit = limit;
        this.aggregate = aggregate;
        this.aggs = aggs;
        this.grouped = aggregate ? new GroupedRows(groupKeys, aggs, projection, ownSlots) : null;
        this.ordered = orderKeys == null ? null : new OrderedRows(orderKeys, descending);
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
            grouped.run(this, f, em, wider);
        } else if (ordered != null) {
            // rows beyond OFFSET+LIMIT/TOP can be discarded early only when every row yields output
            // (no DISTINCT, and no SELECT VALUE whose undefined rows are dropped)
            boolean everyRowEmits = !distinct && !(projection instanceof Projection.Value);
            long keep = everyRowEmits && skip + take >= 0 ? skip + take : Long.MAX_VALUE;
            ordered.run(this, f, sources.length == 0 ? -1 : sources[0].itemSlot(), projection, em, keep);
        } else {
            next(f, 0, fr -> em.emit(projection.project(fr)));
        }
    }

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
        return grouped.undefinedAggregates(this, f, rules);
    }

    // ---- an aggregate query's running state carried across pages (see AggregateState)

    /**
     * True for an aggregate query whose aggregates keep a small state (COUNT, SUM, AVG, MIN, MAX): its groups are
     * their keys and the states of their accumulators, which a page can hand on to the next.
     */
    public boolean carriesAggregates() {
        if (!aggregate) {
            return false;
        }
        for (AggSpec a : aggs) {
            if (!a.kind().carriesState()) {
                return false;
            }
        }
        return true;
    }

    /** The grouping of an aggregate query ({@link AggregateState} carries its groups). */
    GroupedRows grouped() {
        return grouped;
    }
}
