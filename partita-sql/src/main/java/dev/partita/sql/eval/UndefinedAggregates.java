package dev.partita.sql.eval;

import java.util.Map;

/**
 * The aggregates of a query that a wider scope makes undefined, per group: SUM/AVG that saw a value which is not a
 * number, MIN/MAX that saw an array or an object. One range of a cross-partition query computes only its share of
 * each aggregate and the SDK merges the shares, but both SDKs skip an undefined share instead of letting it make
 * the whole result undefined (the Java SumAggregator adds the others, MinAggregator ignores it): every range must
 * then answer undefined for that aggregate, which it can only know from the whole scope.
 */
public final class UndefinedAggregates {
    /** Nothing is undefined beyond what the range sees itself. */
    public static final UndefinedAggregates NONE = new UndefinedAggregates(Map.of());

    /** Group key → for each aggregate call of the projection, whether it is undefined for good. */
    private final Map<Key, boolean[]> byGroup;

    UndefinedAggregates(Map<Key, boolean[]> byGroup) {
        this.byGroup = byGroup;
    }

    /** True when no aggregate is made undefined. */
    public boolean isEmpty() {
        return byGroup.isEmpty();
    }

    /** The flags of one group, or null when none of its aggregates is undefined. */
    boolean[] of(Key group) {
        return byGroup.get(group);
    }
}
