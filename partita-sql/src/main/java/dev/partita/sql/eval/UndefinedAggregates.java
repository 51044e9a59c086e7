package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.Set;

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
    public static final UndefinedAggregates NONE = new UndefinedAggregates(Map.of(), Map.of(), Map.of(), null);

    /** What of a row the SDKs must not see, by the shapes of their partials. */
    public interface RowRules {
        /** For a row computed over the whole scope: the payload members to leave out, or null for the whole row. */
        Set<String> hiddenIn(JsonNode wholeRow);

        /** The row without those payload members. */
        JsonNode without(JsonNode row, Set<String> members);
    }

    /** Group key → for each aggregate call of the projection, whether it is undefined for good. */
    private final Map<Key, boolean[]> byGroup;
    /** Group key → the whole scope's result of each aggregate call (MIN/MAX shares keep only that value). */
    private final Map<Key, JsonNode[]> results;
    /** Group key → the payload members its rows leave out; {@link #WHOLE_ROW} for the whole row. */
    private final Map<Key, Set<String>> hidden;
    /** The rules to apply to a row; for items that are the whole scope themselves, to their own rows. */
    private final RowRules rules;
    private static final Set<String> WHOLE_ROW = Set.of("");

    UndefinedAggregates(Map<Key, boolean[]> byGroup, Map<Key, JsonNode[]> results, Map<Key, Set<String>> hidden,
            RowRules rules) {
        this.byGroup = byGroup;
        this.results = results;
        this.hidden = hidden;
        this.rules = rules;
    }

    /** For a range that holds the whole scope: its own rows are judged by {@code rules}. */
    public static UndefinedAggregates wholeScope(RowRules rules) {
        return new UndefinedAggregates(Map.of(), Map.of(), null, rules);
    }

    /** The groups of the scope these were computed over (none for {@link #NONE} and {@link #wholeScope}). */
    Set<Key> groups() {
        return results.keySet();
    }

    /** What the whole scope's row of a group hides, for {@link #sent}. */
    static Set<String> hiddenOf(RowRules rules, JsonNode wholeRow) {
        Set<String> members = rules.hiddenIn(wholeRow);
        return members == null ? WHOLE_ROW : members;
    }

    /** The group's row (computed here) as the SDKs must see it, or null when it is left out. */
    JsonNode sent(Key group, JsonNode row) {
        if (rules == null) {
            return row;
        }
        Set<String> members = hidden != null ? hidden.getOrDefault(group, Set.of()) : hiddenOf(rules, row);
        if (members == WHOLE_ROW) {
            return null;
        }
        return members.isEmpty() ? row : rules.without(row, members);
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
