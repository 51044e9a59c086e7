package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The aggregates of a query that a wider scope makes undefined, per group: SUM/AVG that saw a value which is not a
 * number, MIN/MAX that saw an array or an object. One range of a cross-partition query computes only its share of
 * each aggregate and the SDK merges the shares, but both SDKs skip an undefined share instead of letting it make
 * the whole result undefined (the Java SumAggregator adds the others, MinAggregator ignores it): every range must
 * then answer undefined for that aggregate, which it can only know from the whole scope. The groups whose whole-scope
 * row a given test hides (an undefined VALUE aggregate, which the SDKs would show as a row) are left out. A MIN or MAX
 * share is kept only by the part that holds the scope's value (see {@link Aggregate.Accumulator#shareOnlyIf}).
 */
public final class UndefinedAggregates {
    /** Nothing is undefined beyond what the range sees itself. */
    public static final UndefinedAggregates NONE = new UndefinedAggregates(Map.of(), Map.of(), Set.of(), null);

    /** Group key → for each aggregate call of the projection, whether it is undefined for good. */
    private final Map<Key, boolean[]> byGroup;
    /** Group key → the whole scope's result of each aggregate call (MIN/MAX shares keep only that value). */
    private final Map<Key, JsonNode[]> results;
    /** Groups whose rows are left out. */
    private final Set<Key> hidden;
    /** For items that are the whole scope themselves: the rows to leave out, or null. */
    private final Predicate<JsonNode> hideRow;

    UndefinedAggregates(Map<Key, boolean[]> byGroup, Map<Key, JsonNode[]> results, Set<Key> hidden,
            Predicate<JsonNode> hideRow) {
        this.byGroup = byGroup;
        this.results = results;
        this.hidden = hidden;
        this.hideRow = hideRow;
    }

    /** For a range that holds the whole scope: its own rows that {@code hideRow} matches are left out. */
    public static UndefinedAggregates wholeScope(Predicate<JsonNode> hideRow) {
        return new UndefinedAggregates(Map.of(), Map.of(), Set.of(), hideRow);
    }

    /** True when the group's row (computed here) is left out. */
    boolean hides(Key group, JsonNode row) {
        return hidden.contains(group) || hideRow != null && hideRow.test(row);
    }

    /** Aligns one group's accumulators with the whole scope's: undefined where it is, MIN/MAX shares. */
    void align(Key group, Aggregate.Accumulator[] accumulators) {
        boolean[] undefined = byGroup.get(group);
        JsonNode[] whole = results.get(group);
        for (int i = 0; i < accumulators.length; i++) {
            if (undefined != null && undefined[i]) {
                accumulators[i].makeUndefined();
            } else if (whole != null) {
                accumulators[i].shareOnlyIf(whole[i]);
            }
        }
    }
}
