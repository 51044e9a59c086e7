package dev.partita.sql.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * Number helpers. Numbers are doubles in the language, but integers within the signed 64-bit range
 * keep integer identity (literals, stored values, integer arithmetic without overflow). Computed
 * doubles that are integral and within +-2^53 are stored as {@code LongNode} so that results print
 * as the service prints them ({@code 2}, not {@code 2.0}).
 */
public final class Num {
    private static final double TWO_53 = 9007199254740992d;
    private static final double TWO_63 = 9.223372036854775808E18;

    private Num() {
    }

    public static JsonNode of(long value) {
        return LongNode.valueOf(value);
    }

    public static JsonNode of(double value) {
        if (value == Math.rint(value) && Math.abs(value) <= TWO_53) {
            return LongNode.valueOf((long) value);
        }
        return DoubleNode.valueOf(value);
    }

    /**
     * The value with every integral non-integer number inside it (a stored {@code 1.0}) as the integer the service
     * prints ({@code 1}); the node itself when it has none. The SDKs hash GROUP BY keys by their JSON type (the Java
     * SDK's DistinctHash tells an int from a double), so a group's key must print the same from every partition.
     */
    public static JsonNode integralAsInteger(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isFloatingPointNumber() || v.isBigDecimal()) {
            JsonNode n = of(v.doubleValue());
            return n.isIntegralNumber() ? n : v;
        }
        if (v instanceof ObjectNode o) {
            ObjectNode copy = null;
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                JsonNode m = integralAsInteger(e.getValue());
                if (m != e.getValue()) {
                    copy = copy == null ? o.deepCopy() : copy;
                    copy.set(e.getKey(), m);
                }
            }
            return copy == null ? v : copy;
        }
        if (v instanceof ArrayNode a) {
            ArrayNode copy = null;
            for (int i = 0; i < a.size(); i++) {
                JsonNode m = integralAsInteger(a.get(i));
                if (m != a.get(i)) {
                    copy = copy == null ? a.deepCopy() : copy;
                    copy.set(i, m);
                }
            }
            return copy == null ? v : copy;
        }
        return v;
    }

    /** True when {@code n} is a number stored with exact 64-bit integer identity. */
    public static boolean isExactLong(JsonNode n) {
        return n.isIntegralNumber() && (n.isInt() || n.isLong() || n.isShort() || n.canConvertToLong());
    }

    /** True when {@code n} is a number whose value is an integer within the signed 64-bit range. */
    public static boolean isInteger(JsonNode n) {
        if (n == null || !n.isNumber()) {
            return false;
        }
        if (n.isIntegralNumber()) {
            return n.canConvertToLong();
        }
        double d = n.doubleValue();
        return d == Math.rint(d) && d >= -TWO_63 && d < TWO_63;
    }

    /** The integer value of a number for which {@link #isInteger} is true. */
    public static long longValue(JsonNode n) {
        if (n.isIntegralNumber()) {
            return n.longValue();
        }
        return (long) n.doubleValue();
    }

    /** JavaScript ToInt32. */
    public static int toInt32(JsonNode n) {
        if (isExactLong(n)) {
            return (int) n.longValue();
        }
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return 0;
        }
        double t = d < 0 ? Math.ceil(d) : Math.floor(d);
        double m = t % 4294967296d;
        return (int) (long) m;
    }

    /** Text of a number as the service's ToString() prints it. */
    public static String toText(JsonNode n) {
        if (isExactLong(n)) {
            return Long.toString(n.longValue());
        }
        return toText(n.doubleValue());
    }

    /** Text of a double: shortest round-trip digits, fixed notation unless the exponent is very small/large. */
    public static String toText(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return "0";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        String s = Double.toString(Math.abs(d));
        // split into digits and decimal exponent
        int ePos = s.indexOf('E');
        String mantissa = ePos >= 0 ? s.substring(0, ePos) : s;
        int exp = ePos >= 0 ? Integer.parseInt(s.substring(ePos + 1)) : 0;
        int dot = mantissa.indexOf('.');
        String intPart = dot >= 0 ? mantissa.substring(0, dot) : mantissa;
        String fracPart = dot >= 0 ? mantissa.substring(dot + 1) : "";
        String digits = intPart + fracPart;
        int pointPos = intPart.length() + exp; // position of decimal point within digits
        // strip leading zeros
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        pointPos -= lead;
        // strip trailing zeros
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits = digits.substring(0, end);
        int x = pointPos - 1; // decimal exponent of the first digit
        int precision = Math.max(digits.length(), 15);
        StringBuilder out = new StringBuilder();
        if (d < 0) {
            out.append('-');
        }
        if (x < -4 || x >= precision) {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            out.append('e').append(x < 0 ? '-' : '+');
            String ex = Integer.toString(Math.abs(x));
            for (int i = ex.length(); i < 3; i++) {
                out.append('0');
            }
            out.append(ex);
        } else if (pointPos <= 0) {
            out.append("0.");
            for (int i = 0; i < -pointPos; i++) {
                out.append('0');
            }
            out.append(digits);
        } else if (pointPos >= digits.length()) {
            out.append(digits);
            for (int i = digits.length(); i < pointPos; i++) {
                out.append('0');
            }
        } else {
            out.append(digits, 0, pointPos).append('.').append(digits, pointPos, digits.length());
        }
        return out.toString();
    }
}
