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
