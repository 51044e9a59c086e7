package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Aggregate functions and their accumulators. Undefined inputs are always skipped.
 * <ul>
 *   <li>COUNT: defined values of any type. SUM: 0 over nothing, undefined if any non-number.</li>
 *   <li>AVG: undefined over nothing or if any non-number.</li>
 *   <li>MIN/MAX: over primitives in type order (null &lt; bool &lt; number &lt; string); undefined over
 *       nothing or if an array/object appears.</li>
 *   <li>MAKELIST / MAKESET: the values / distinct values as an array. COUNTIF: rows where the value is true.</li>
 * </ul>
 */
enum Aggregate {
    COUNT, SUM, AVG, MIN, MAX, MAKELIST, MAKESET, COUNTIF;

    static Aggregate of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    Accumulator newAccumulator() {
        return switch (this) {
            case COUNT -> new Count(false);
            case COUNTIF -> new Count(true);
            case SUM -> new Sum(false);
            case AVG -> new Sum(true);
            case MIN -> new Extreme(-1);
            case MAX -> new Extreme(1);
            case MAKELIST -> new Collect(false);
            case MAKESET -> new Collect(true);
        };
    }

    /** Per-group state of one aggregate. */
    interface Accumulator {
        void add(JsonNode v);

        JsonNode result();

        /** True when a value seen makes the result undefined whatever else comes (SUM/AVG, MIN/MAX only). */
        default boolean undefinedForGood() {
            return false;
        }

        /** Makes the result undefined for good, as a value of a wider scope that this one does not see would. */
        default void makeUndefined() {
        }

        /**
         * Keeps this part's result only when it is the whole scope's {@code whole} (MIN/MAX): the part that holds the
         * scope's value reports it, the others nothing, so a merge never compares two parts' values (the JS SDK's
         * MaxAggregator cannot compare null with another value).
         */
        default void shareOnlyIf(JsonNode whole) {
        }

        /**
         * The running state, for a page that hands it on in its continuation ({@link AggregateState}); only COUNT,
         * SUM, AVG, MIN and MAX carry theirs (a MAKELIST's state is its values, no size a token can hold).
         */
        default JsonNode state() {
            throw new UnsupportedOperationException("not carried");
        }

        /** Takes up a state from {@link #state()}; a state of another shape is an IllegalArgumentException. */
        default void restore(JsonNode state) {
            throw new UnsupportedOperationException("not carried");
        }
    }

    /** True for the aggregates whose running state is a few values ({@link Accumulator#state()}). */
    boolean carriesState() {
        return this != MAKELIST && this != MAKESET;
    }

    private static JsonNode checked(JsonNode state, boolean valid) {
        if (!valid) {
            throw new IllegalArgumentException("aggregate state");
        }
        return state;
    }

    private static final class Count implements Accumulator {
        private final boolean onlyTrue;
        private long n;

        Count(boolean onlyTrue) {
            this.onlyTrue = onlyTrue;
        }

        @Override
        public void add(JsonNode v) {
            if (v != null && (!onlyTrue || Values.isTrue(v))) {
                n++;
            }
        }

        @Override
        public JsonNode result() {
            return Num.of(n);
        }

        @Override
        public JsonNode state() {
            return JsonNodeFactory.instance.numberNode(n);
        }

        @Override
        public void restore(JsonNode state) {
            n = checked(state, state.canConvertToExactIntegral() && state.longValue() >= 0).longValue();
        }
    }

    private static final class Sum implements Accumulator {
        private final boolean average;
        private long count;
        private boolean invalid;
        private boolean exact = true;
        private long longSum;
        private double doubleSum;

        Sum(boolean average) {
            this.average = average;
        }

        @Override
        public void add(JsonNode v) {
            if (v == null || invalid) {
                return;
            }
            if (!v.isNumber()) {
                invalid = true;
                return;
            }
            count++;
            doubleSum += v.doubleValue();
            if (exact) {
                if (Num.isExactLong(v)) {
                    try {
                        longSum = Math.addExact(longSum, v.longValue());
                    } catch (ArithmeticException e) {
                        exact = false;
                    }
                } else {
                    exact = false;
                }
            }
        }

        @Override
        public JsonNode result() {
            if (invalid) {
                return null;
            }
            if (average) {
                if (count == 0) {
                    return null;
                }
                return Num.of((exact ? (double) longSum : doubleSum) / count);
            }
            return exact ? Num.of(longSum) : Num.of(doubleSum);
        }

        @Override
        public boolean undefinedForGood() {
            return invalid;
        }

        @Override
        public void makeUndefined() {
            invalid = true;
        }

        /** {@code [count, invalid, exact, longSum, doubleSum's bits]}: the bits keep the double exact. */
        @Override
        public JsonNode state() {
            return JsonNodeFactory.instance.arrayNode().add(count).add(invalid).add(exact).add(longSum)
                    .add(Double.doubleToRawLongBits(doubleSum));
        }

        @Override
        public void restore(JsonNode state) {
            checked(state, state.isArray() && state.size() == 5 && state.get(0).canConvertToExactIntegral()
                    && state.get(1).isBoolean() && state.get(2).isBoolean() && state.get(3).canConvertToExactIntegral()
                    && state.get(4).canConvertToExactIntegral());
            count = state.get(0).longValue();
            invalid = state.get(1).booleanValue();
            exact = state.get(2).booleanValue();
            longSum = state.get(3).longValue();
            doubleSum = Double.longBitsToDouble(state.get(4).longValue());
        }
    }

    private static final class Extreme implements Accumulator {
        private final int sign;
        private JsonNode best;
        private boolean invalid;

        Extreme(int sign) {
            this.sign = sign;
        }

        @Override
        public void add(JsonNode v) {
            if (v == null || invalid) {
                return;
            }
            int t = Values.typeOrder(v);
            if (t == Values.T_ARRAY || t == Values.T_OBJECT) {
                invalid = true;
                return;
            }
            if (best == null || Integer.signum(Values.compareTotal(v, best)) == sign) {
                best = v;
            }
        }

        @Override
        public JsonNode result() {
            return invalid ? null : best;
        }

        @Override
        public boolean undefinedForGood() {
            return invalid;
        }

        @Override
        public void makeUndefined() {
            invalid = true;
        }

        @Override
        public void shareOnlyIf(JsonNode whole) {
            if (best != null && (whole == null || Values.compareTotal(best, whole) != 0)) {
                best = null;
            }
        }

        /** {@code [invalid]} before any value, {@code [invalid, best]} after. */
        @Override
        public JsonNode state() {
            ArrayNode out = JsonNodeFactory.instance.arrayNode().add(invalid);
            return best == null ? out : out.add(best);
        }

        @Override
        public void restore(JsonNode state) {
            checked(state, state.isArray() && (state.size() == 1 || state.size() == 2) && state.get(0).isBoolean()
                    && (state.size() == 1 || !state.get(1).isContainerNode()));
            invalid = state.get(0).booleanValue();
            best = state.size() == 2 ? state.get(1) : null;
        }
    }

    private static final class Collect implements Accumulator {
        private final ArrayNode values = JsonNodeFactory.instance.arrayNode();
        private final Set<Key> seen;

        Collect(boolean distinct) {
            this.seen = distinct ? new HashSet<>() : null;
        }

        @Override
        public void add(JsonNode v) {
            if (v == null) {
                return;
            }
            if (seen == null || seen.add(Key.of(v))) {
                values.add(v);
            }
        }

        @Override
        public JsonNode result() {
            return values;
        }
    }
}
