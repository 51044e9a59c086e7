package dev.partita.server;

import java.util.List;
import java.util.Random;

/** Random building blocks for the fuzz test: strings, JSON texts (valid, deep, broken) and odd values. */
final class FuzzValues {
    private FuzzValues() {
    }

    static final List<String> ODD_STRINGS = List.of("", " ", "a", "\\", "\"", "/", "#", "?", "%", "%zz", "\u0000",
            "\t", "\u00e9", "\u20ac", "\ud83d\ude00", "\ud800", "null", "true", "[]", "{}", "-0", "1e400", "NaN",
            "undefined", "'", "--", "/*", "dbs", "colls", "docs", "..", ".");

    static <T> T pick(Random r, List<T> values) {
        return values.get(r.nextInt(values.size()));
    }

    static String string(Random r) {
        int roll = r.nextInt(10);
        if (roll < 3) {
            return pick(r, ODD_STRINGS);
        }
        int n = roll < 9 ? r.nextInt(12) : r.nextInt(2000);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(8);
            sb.append(c < 5 ? (char) ('a' + r.nextInt(26)) : c < 7 ? (char) (32 + r.nextInt(95))
                    : (char) (r.nextInt(0x3000)));
        }
        return sb.toString();
    }

    /** A JSON string literal for {@code s}, escaping what JSON requires (lone surrogates pass through). */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    static String number(Random r) {
        return pick(r, List.of("0", "-1", "1", "3.5", "-0", "1e308", "1e400", "-1e-400", "9007199254740993",
                "123456789012345678901234567890", "0.1", String.valueOf(r.nextInt()), String.valueOf(r.nextDouble())));
    }

    /** Any JSON value, nesting at most {@code depth}. */
    static String json(Random r, int depth) {
        int roll = r.nextInt(depth <= 0 ? 5 : 8);
        return switch (roll) {
            case 0 -> "null";
            case 1 -> r.nextBoolean() ? "true" : "false";
            case 2 -> number(r);
            case 3, 4 -> quote(string(r));
            case 5 -> {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(json(r, depth - 1));
                }
                yield sb.append(']').toString();
            }
            default -> object(r, depth - 1, r.nextInt(6));
        };
    }

    static String object(Random r, int depth, int fields) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < fields; i++) {
            String name = r.nextInt(3) == 0 ? pick(r, List.of("id", "pk", "a", "b", "_ts", "_etag", "_rid", "ttl",
                    "partitionKey", "value", "_self")) : string(r);
            sb.append(i > 0 ? "," : "").append(quote(name)).append(':').append(json(r, depth));
        }
        return sb.append('}').toString();
    }

    /** Arrays or objects nested {@code depth} deep. */
    static String deep(Random r, int depth) {
        boolean arrays = r.nextBoolean();
        StringBuilder sb = new StringBuilder(depth * 8);
        if (!arrays) {
            sb.append("{\"id\":\"deep\",\"pk\":\"p1\",\"x\":");
        }
        for (int i = 0; i < depth; i++) {
            sb.append(arrays ? "[" : "{\"a\":");
        }
        sb.append("1");
        for (int i = 0; i < depth; i++) {
            sb.append(arrays ? "]" : "}");
        }
        return arrays ? sb.toString() : sb.append('}').toString();
    }

    /** A JSON text with a flaw: truncated, a byte flipped, or not JSON at all. */
    static String broken(Random r) {
        String good = object(r, 2, 1 + r.nextInt(4));
        return switch (r.nextInt(6)) {
            case 0 -> good.substring(0, r.nextInt(good.length()));
            case 1 -> {
                char[] cs = good.toCharArray();
                cs[r.nextInt(cs.length)] = (char) (32 + r.nextInt(95));
                yield new String(cs);
            }
            case 2 -> "<xml>not json</xml>";
            case 3 -> good + good;
            case 4 -> "{\"id\":\"x\",\"id\":\"y\",\"pk\":\"p1\"}";
            default -> string(r);
        };
    }
}
