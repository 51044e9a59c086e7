package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.ValueSet;
import dev.partita.sql.value.Values;

import java.util.Arrays;
import java.util.Map;

import static dev.partita.sql.functions.Builtins.VARIADIC;
import static dev.partita.sql.functions.Builtins.add;
import static dev.partita.sql.functions.Builtins.str;

/** Array and object functions, CHOOSE and the set functions. */
final class ArrayFunctions {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ArrayFunctions() {
    }

    static void register() {
        add("ARRAY_CONCAT", 2, VARIADIC, true, (a, e) -> {
            ArrayNode out = F.arrayNode();
            for (JsonNode n : a) {
                if (!n.isArray()) {
                    return null;
                }
                out.addAll((ArrayNode) n);
            }
            return out;
        });
        add("ARRAY_CONTAINS", 2, 3, true, (a, e) -> {
            if (!a[0].isArray()) {
                return null;
            }
            boolean partial = false;
            if (a.length > 2) {
                if (!a[2].isBoolean()) {
                    return null;
                }
                partial = a[2].booleanValue();
            }
            for (JsonNode el : a[0]) {
                if (partial ? partialMatch(el, a[1]) : Values.deepEquals(el, a[1])) {
                    return Values.bool(true);
                }
            }
            return Values.bool(false);
        });
        arrayContainsMany("ARRAY_CONTAINS_ALL", true);
        arrayContainsMany("ARRAY_CONTAINS_ANY", false);
        add("ARRAY_LENGTH", 1, 1, true, (a, e) -> a[0].isArray() ? Num.of(a[0].size()) : null);
        add("ARRAY_SLICE", 2, 3, true, (a, e) -> {
            if (!a[0].isArray() || !Num.isInteger(a[1]) || (a.length > 2 && !Num.isInteger(a[2]))) {
                return null;
            }
            int size = a[0].size();
            long start = Num.longValue(a[1]);
            if (start < 0) {
                start = Math.max(0, size + start);
            }
            start = Math.min(start, size);
            long end = size;
            if (a.length > 2) {
                long len = Num.longValue(a[2]);
                end = len < 0 ? start : Math.min(size, start + len);
            }
            ArrayNode out = F.arrayNode();
            for (long i = start; i < end; i++) {
                out.add(a[0].get((int) i));
            }
            return out;
        });
        add("ARRAY_SUM", 1, 1, true, (a, e) -> {
            double[] nums = numbers(a[0]);
            if (nums == null) {
                return null;
            }
            return sum(a[0], nums);
        });
        add("ARRAY_AVG", 1, 1, true, (a, e) -> {
            double[] nums = numbers(a[0]);
            if (nums == null || nums.length == 0) {
                return null;
            }
            double s = 0;
            for (double d : nums) {
                s += d;
            }
            return Num.of(s / nums.length);
        });
        add("ARRAY_MEDIAN", 1, 1, true, (a, e) -> {
            double[] nums = numbers(a[0]);
            if (nums == null || nums.length == 0) {
                return null;
            }
            double[] sorted = nums.clone();
            Arrays.sort(sorted);
            int n = sorted.length;
            return Num.of(n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2);
        });
        add("ARRAY_MIN", 1, 1, true, (a, e) -> extreme(a[0], -1));
        add("ARRAY_MAX", 1, 1, true, (a, e) -> extreme(a[0], 1));
        add("CHOOSE", 2, VARIADIC, false, (a, e) -> {
            if (!Num.isInteger(a[0])) {
                return null;
            }
            long i = Num.longValue(a[0]);
            if (i < 1 || i >= a.length) {
                return null;
            }
            return a[(int) i];
        });
        add("ObjectToArray", 1, 3, true, (a, e) -> {
            if (!a[0].isObject()) {
                return null;
            }
            String k = "k";
            String v = "v";
            if (a.length > 1) {
                k = str(a[1]);
                if (k == null) {
                    return null;
                }
            }
            if (a.length > 2) {
                v = str(a[2]);
                if (v == null) {
                    return null;
                }
            }
            ArrayNode out = F.arrayNode();
            for (Map.Entry<String, JsonNode> p : a[0].properties()) {
                ObjectNode o = F.objectNode();
                o.put(k, p.getKey());
                o.set(v, p.getValue());
                out.add(o);
            }
            return out;
        });
        add("SetIntersect", 2, 2, true, (a, e) -> {
            if (!a[0].isArray() || !a[1].isArray()) {
                return null;
            }
            ValueSet first = ValueSet.of(a[0]);
            ValueSet out = new ValueSet();
            for (JsonNode x : a[1]) {
                if (first.contains(x)) {
                    out.add(x);
                }
            }
            return F.arrayNode().addAll(out.values());
        });
        add("SetUnion", 2, 2, true, (a, e) -> {
            if (!a[0].isArray() || !a[1].isArray()) {
                return null;
            }
            ValueSet out = new ValueSet();
            for (JsonNode arr : a) {
                for (JsonNode x : arr) {
                    out.add(x);
                }
            }
            return F.arrayNode().addAll(out.values());
        });
        add("SetDifference", 2, 2, true, (a, e) -> {
            if (!a[0].isArray() || !a[1].isArray()) {
                return null;
            }
            ValueSet second = ValueSet.of(a[1]);
            ValueSet out = new ValueSet();
            for (JsonNode x : a[0]) {
                if (!second.contains(x)) {
                    out.add(x);
                }
            }
            return F.arrayNode().addAll(out.values());
        });
        add("SetEqual", 2, 2, true, (a, e) -> {
            if (!a[0].isArray() || !a[1].isArray()) {
                return null;
            }
            ValueSet first = ValueSet.of(a[0]);
            ValueSet second = ValueSet.of(a[1]);
            for (JsonNode x : a[0]) {
                if (!second.contains(x)) {
                    return Values.bool(false);
                }
            }
            for (JsonNode x : a[1]) {
                if (!first.contains(x)) {
                    return Values.bool(false);
                }
            }
            return Values.bool(true);
        });
    }

    private static void arrayContainsMany(String name, boolean all) {
        add(name, 2, VARIADIC, false, (a, e) -> {
            if (a[0] == null || !a[0].isArray()) {
                return null;
            }
            boolean unknown = false;
            // many probes of a long array: one pass to hash it, then a lookup per probe
            ValueSet members = (long) a[0].size() * (a.length - 1) > 4096 ? ValueSet.of(a[0]) : null;
            for (int i = 1; i < a.length; i++) {
                if (a[i] == null) {
                    unknown = true;
                    continue;
                }
                boolean hit = members != null ? members.contains(a[i]) : contains(a[0], a[i]);
                if (all && !hit) {
                    return Values.bool(false);
                }
                if (!all && hit) {
                    return Values.bool(true);
                }
            }
            return unknown ? null : Values.bool(all);
        });
    }

    private static boolean partialMatch(JsonNode element, JsonNode probe) {
        if (probe.isObject()) {
            if (!element.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> p : probe.properties()) {
                if (!Values.deepEquals(element.get(p.getKey()), p.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return Values.deepEquals(element, probe);
    }

    private static boolean contains(Iterable<JsonNode> arr, JsonNode x) {
        for (JsonNode el : arr) {
            if (Values.deepEquals(el, x)) {
                return true;
            }
        }
        return false;
    }

    /** The numeric elements of an array, or null when it is not an array or holds a non-number. */
    private static double[] numbers(JsonNode arr) {
        if (!arr.isArray()) {
            return null;
        }
        double[] out = new double[arr.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode el = arr.get(i);
            if (!el.isNumber()) {
                return null;
            }
            out[i] = el.doubleValue();
        }
        return out;
    }

    private static JsonNode sum(JsonNode arr, double[] nums) {
        boolean allLong = true;
        long ls = 0;
        for (JsonNode el : arr) {
            if (!Num.isExactLong(el)) {
                allLong = false;
                break;
            }
            try {
                ls = Math.addExact(ls, el.longValue());
            } catch (ArithmeticException ex) {
                allLong = false;
                break;
            }
        }
        if (allLong) {
            return Num.of(ls);
        }
        double s = 0;
        for (double d : nums) {
            s += d;
        }
        return Num.of(s);
    }

    /** ARRAY_MIN / ARRAY_MAX: over primitives in type order; undefined when an array/object appears or empty. */
    private static JsonNode extreme(JsonNode arr, int sign) {
        if (!arr.isArray() || arr.isEmpty()) {
            return null;
        }
        JsonNode best = null;
        for (JsonNode el : arr) {
            int t = Values.typeOrder(el);
            if (t == Values.T_ARRAY || t == Values.T_OBJECT) {
                return null;
            }
            if (best == null || Integer.signum(Values.compareTotal(el, best)) == sign) {
                best = el;
            }
        }
        return best;
    }
}
