package dev.partita.sql.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.partita.sql.SqlException;

import java.util.Map;

/**
 * The value model's rules: type order, equality, hashing and ordering, over Jackson nodes with
 * {@code null} standing for undefined.
 * <ul>
 *   <li>Type order (ORDER BY, MIN/MAX): undefined &lt; null &lt; boolean &lt; number &lt; string &lt; array &lt; object.</li>
 *   <li>Equality is deep: numbers by value ({@code 1 = 1.0}), strings ordinally, arrays element-wise in order,
 *       objects regardless of property order.</li>
 *   <li>Strings compare by UTF-16 code unit (ordinal), as {@link String#compareTo} does.</li>
 * </ul>
 */
public final class Values {
    public static final int T_UNDEFINED = 0;
    public static final int T_NULL = 1;
    public static final int T_BOOLEAN = 2;
    public static final int T_NUMBER = 3;
    public static final int T_STRING = 4;
    public static final int T_ARRAY = 5;
    public static final int T_OBJECT = 6;
    /** Any other node kind (binary, POJO, missing); treated like undefined. */
    private static final int T_OTHER = 0;

    /**
     * The longest string a query builds (16 Mi characters: far above any item, 2 MB, far below the heap). Functions that
     * join, repeat or print values refuse past it with a 400 before building: one call is not interrupted by the
     * query's time budget, and a StringJoin of a million 10 KB strings filled the heap in one evaluation.
     */
    public static final int MAX_BUILT_STRING = 1 << 24;

    /** 400 when a string of {@code length} characters, the result of {@code what}, would pass {@link #MAX_BUILT_STRING}. */
    public static void checkBuiltLength(long length, String what) {
        if (length > MAX_BUILT_STRING) {
            throw new SqlException("The result of " + what + " would be " + (length > Integer.MAX_VALUE
                    ? "over " + Integer.MAX_VALUE : String.valueOf(length)) + " characters long, more than the "
                    + MAX_BUILT_STRING + " a string in a query may have.");
        }
    }

    private Values() {
    }

    public static JsonNode bool(boolean b) {
        return b ? BooleanNode.TRUE : BooleanNode.FALSE;
    }

    /** True only for boolean {@code true} (the WHERE / ternary / IIF rule). */
    public static boolean isTrue(JsonNode v) {
        return v != null && v.isBoolean() && v.booleanValue();
    }

    public static int typeOrder(JsonNode v) {
        if (v == null) {
            return T_UNDEFINED;
        }
        return switch (v.getNodeType()) {
            case NULL -> T_NULL;
            case BOOLEAN -> T_BOOLEAN;
            case NUMBER -> T_NUMBER;
            case STRING -> T_STRING;
            case ARRAY -> T_ARRAY;
            case OBJECT -> T_OBJECT;
            default -> T_OTHER;
        };
    }

    /** Numeric comparison honouring 64-bit integer identity where both sides have it. */
    public static int compareNumbers(JsonNode a, JsonNode b) {
        if (Num.isExactLong(a) && Num.isExactLong(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        return Double.compare(a.doubleValue(), b.doubleValue());
    }

    /** Numeric equality (NaN is not equal to itself, -0 equals 0). */
    public static boolean numbersEqual(JsonNode a, JsonNode b) {
        if (Num.isExactLong(a) && Num.isExactLong(b)) {
            return a.longValue() == b.longValue();
        }
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return a.bigIntegerValue().equals(b.bigIntegerValue());
        }
        return a.doubleValue() == b.doubleValue();
    }

    /** Deep equality of two defined values (false when either is undefined). */
    public static boolean deepEquals(JsonNode a, JsonNode b) {
        if (a == b) {
            return a != null;
        }
        if (a == null || b == null) {
            return false;
        }
        int ta = typeOrder(a);
        if (ta != typeOrder(b)) {
            return false;
        }
        switch (ta) {
            case T_NULL:
                return true;
            case T_BOOLEAN:
                return a.booleanValue() == b.booleanValue();
            case T_NUMBER:
                return numbersEqual(a, b);
            case T_STRING:
                return a.textValue().equals(b.textValue());
            case T_ARRAY: {
                int n = a.size();
                if (n != b.size()) {
                    return false;
                }
                for (int i = 0; i < n; i++) {
                    if (!deepEquals(a.get(i), b.get(i))) {
                        return false;
                    }
                }
                return true;
            }
            case T_OBJECT: {
                if (a.size() != b.size()) {
                    return false;
                }
                for (Map.Entry<String, JsonNode> e : a.properties()) {
                    JsonNode other = b.get(e.getKey());
                    if (other == null || !deepEquals(e.getValue(), other)) {
                        return false;
                    }
                }
                return true;
            }
            default:
                return false;
        }
    }

    /** A hash consistent with {@link #deepEquals}; undefined hashes to 0. */
    public static int hash(JsonNode v) {
        switch (typeOrder(v)) {
            case T_UNDEFINED:
                return 0;
            case T_NULL:
                return 1;
            case T_BOOLEAN:
                return v.booleanValue() ? 3 : 2;
            case T_NUMBER: {
                double d = v.doubleValue();
                if (d == 0) {
                    return 17;
                }
                return Double.hashCode(d);
            }
            case T_STRING:
                return v.textValue().hashCode();
            case T_ARRAY: {
                int h = 7;
                for (int i = 0, n = v.size(); i < n; i++) {
                    h = h * 31 + hash(v.get(i));
                }
                return h;
            }
            case T_OBJECT: {
                int h = 11;
                for (Map.Entry<String, JsonNode> e : v.properties()) {
                    h += e.getKey().hashCode() ^ hash(e.getValue());
                }
                return h;
            }
            default:
                return 0;
        }
    }

    /**
     * Comparison for the relational operators: the sign of a.compareTo(b) when both are the same
     * primitive type (null, boolean, number, string), otherwise {@link Integer#MIN_VALUE} meaning
     * "undefined". NaN compares as undefined.
     */
    public static int compareForOperator(JsonNode a, JsonNode b) {
        int ta = typeOrder(a);
        if (ta == T_UNDEFINED || ta != typeOrder(b)) {
            return Integer.MIN_VALUE;
        }
        switch (ta) {
            case T_NULL:
                return 0;
            case T_BOOLEAN:
                return Boolean.compare(a.booleanValue(), b.booleanValue());
            case T_NUMBER: {
                if (Num.isExactLong(a) && Num.isExactLong(b)) {
                    return Long.compare(a.longValue(), b.longValue());
                }
                double x = a.doubleValue();
                double y = b.doubleValue();
                if (Double.isNaN(x) || Double.isNaN(y)) {
                    return Integer.MIN_VALUE;
                }
                return x < y ? -1 : (x > y ? 1 : 0);
            }
            case T_STRING:
                return Integer.signum(a.textValue().compareTo(b.textValue()));
            default:
                return Integer.MIN_VALUE;
        }
    }

    /**
     * Total order used by ORDER BY, MIN/MAX, and GROUP BY output: type order first, then value order
     * within the type. Arrays compare element-wise then by length; objects by size (their relative order
     * is unspecified by the service).
     */
    public static int compareTotal(JsonNode a, JsonNode b) {
        int ta = typeOrder(a);
        int tb = typeOrder(b);
        if (ta != tb) {
            return Integer.compare(ta, tb);
        }
        switch (ta) {
            case T_UNDEFINED:
            case T_NULL:
                return 0;
            case T_BOOLEAN:
                return Boolean.compare(a.booleanValue(), b.booleanValue());
            case T_NUMBER:
                return compareNumbers(a, b);
            case T_STRING:
                return a.textValue().compareTo(b.textValue());
            case T_ARRAY: {
                int n = Math.min(a.size(), b.size());
                for (int i = 0; i < n; i++) {
                    int c = compareTotal(a.get(i), b.get(i));
                    if (c != 0) {
                        return c;
                    }
                }
                return Integer.compare(a.size(), b.size());
            }
            case T_OBJECT:
                return Integer.compare(a.size(), b.size());
            default:
                return 0;
        }
    }

    /** Compact JSON text as the service's ToString() writes it (no spaces; numbers as {@link Num#toText}). */
    public static String toJsonText(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        writeJson(sb, v);
        return sb.toString();
    }

    private static void writeJson(StringBuilder sb, JsonNode v) {
        checkBuiltLength(sb.length(), "ToString");
        switch (typeOrder(v)) {
            case T_NULL -> sb.append("null");
            case T_BOOLEAN -> sb.append(v.booleanValue());
            case T_NUMBER -> sb.append(Num.toText(v));
            case T_STRING -> writeString(sb, v.textValue());
            case T_ARRAY -> {
                sb.append('[');
                for (int i = 0, n = v.size(); i < n; i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    writeJson(sb, v.get(i));
                }
                sb.append(']');
            }
            case T_OBJECT -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> e : v.properties()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    writeString(sb, e.getKey());
                    sb.append(':');
                    writeJson(sb, e.getValue());
                }
                sb.append('}');
            }
            default -> sb.append("null");
        }
    }

    static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
