package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.plan.SortBounds;
import dev.partita.sql.value.Values;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The index terms an item produces under a policy, and their byte encoding. A term is (path, scalar value); its bytes
 * order by path, then by value in the language's cross-type order (undefined &lt; null &lt; false &lt; true &lt;
 * numbers &lt; strings), so a comparison filter on one path is one key interval.
 *
 * <pre>
 * path   each step "/name" (with ~ → ~0, / → ~1, a leading [ → ~2) or "/[n]" for an array position, as UTF-8 with
 *        0x00 → 01 01 and 0x01 → 01 02, then 0x00
 * value  00 undefined | 10 null | 20 false | 21 true | 30 + 8 bytes (order-preserving IEEE double)
 *        | 40 + UTF-16 code units big-endian with 0x00 → 00 FF, then 00 01
 * </pre>
 *
 * Numbers are indexed as doubles (integers beyond 2^53 that round together share a term) and strings by their first
 * {@value #STRING_TERM_CHARS} characters: both only widen a lookup, and the engine re-evaluates the query on every
 * candidate.
 */
public final class IndexTerms {
    static final byte UNDEFINED = 0x00;
    static final byte NULL = 0x10;
    static final byte FALSE = 0x20;
    static final byte TRUE = 0x21;
    static final byte NUMBER = 0x30;
    static final byte STRING = 0x40;
    /** Characters of a string value a term keeps; see {@link #truncated}. */
    static final int STRING_TERM_CHARS = 100;

    private IndexTerms() {
    }

    /**
     * The terms of an item (its stored JSON, system properties included) under the policy, with its computed
     * properties (which the policy indexes only where it names them).
     */
    public static List<byte[]> of(IndexingPolicy policy, JsonNode stored) {
        List<byte[]> out = new ArrayList<>();
        if (!policy.isIndexing() || stored == null || !stored.isObject()) {
            return out;
        }
        JsonNode doc = policy.computed().applyTo(stored);
        PathDecisions decisions = policy.decisions();
        walk(decisions, doc, new ArrayList<>(), decisions.root(), out);
        for (List<String> path : policy.explicitScalarPaths()) {
            JsonNode v = doc;
            for (String step : path) {
                v = v == null || !v.isObject() ? null : v.get(step);
            }
            if (v == null || v.isContainerNode()) {
                out.add(term(new ArrayList<>(path), null));
            }
        }
        return out;
    }

    /** The terms below {@code node} at {@code path}; {@code at}: the path's decisions, or null when not kept. */
    private static void walk(PathDecisions decisions, JsonNode node, List<Object> path, PathDecisions.Step at,
            List<byte[]> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                path.add(e.getKey());
                visit(decisions, e.getValue(), path, at == null ? null : decisions.child(at, e.getKey(), path), out);
                path.remove(path.size() - 1);
            }
        } else {
            for (int i = 0; i < node.size(); i++) {
                path.add(i);
                visit(decisions, node.get(i), path, at == null ? null : decisions.child(at, i, path), out);
                path.remove(path.size() - 1);
            }
        }
    }

    private static void visit(PathDecisions decisions, JsonNode v, List<Object> path, PathDecisions.Step at,
            List<byte[]> out) {
        IndexingPolicy policy = decisions.policy();
        if (v.isContainerNode()) {
            if (at != null ? at.mayIndexBelow : policy.mayIndexBelow(path)) {
                walk(decisions, v, path, at, out);
            }
        } else if (isScalar(v) && (at != null ? at.indexes : policy.indexes(path))) {
            out.add(at != null ? term(at.encoded, v) : term(path, v));
        }
    }

    private static boolean isScalar(JsonNode v) {
        int t = Values.typeOrder(v);
        return t == Values.T_NULL || t == Values.T_BOOLEAN || t == Values.T_NUMBER || t == Values.T_STRING;
    }

    /** The first step of an encoded path ending at {@code end} (system property names need no unescaping). */
    private static String rootName(byte[] term, int end) {
        int stop = 1;
        while (stop < end && term[stop] != '/') {
            stop++;
        }
        return new String(term, 1, stop - 1, StandardCharsets.UTF_8);
    }

    /** The encoded term; {@code value == null} is undefined. */
    static byte[] term(List<Object> path, JsonNode value) {
        TermWriter out = new TermWriter(32);
        writePath(out, path);
        writeValue(out, value);
        return out.toByteArray();
    }

    /** The encoded term of a value at an encoded path ({@link #path}). */
    private static byte[] term(byte[] path, JsonNode value) {
        TermWriter out = new TermWriter(path.length + 16);
        out.writeBytes(path);
        writeValue(out, value);
        return out.toByteArray();
    }

    /** The encoded path alone: the prefix of all its terms. */
    static byte[] path(List<?> path) {
        TermWriter out = new TermWriter(16);
        writePath(out, path);
        return out.toByteArray();
    }

    private static void writePath(TermWriter out, List<?> path) {
        StringBuilder sb = new StringBuilder();
        for (Object step : path) {
            sb.append('/');
            if (step instanceof Integer i) {
                sb.append('[').append(i).append(']');
            } else {
                String name = (String) step;
                for (int i = 0; i < name.length(); i++) {
                    char c = name.charAt(i);
                    if (c == '~') {
                        sb.append("~0");
                    } else if (c == '/') {
                        sb.append("~1");
                    } else if (c == '[' && i == 0) {
                        sb.append("~2");
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        for (byte b : sb.toString().getBytes(StandardCharsets.UTF_8)) {
            if (b == 0x00 || b == 0x01) {
                out.write(0x01);
                out.write(b + 1);
            } else {
                out.write(b);
            }
        }
        out.write(0x00);
    }

    static void writeValue(TermWriter out, JsonNode v) {
        switch (Values.typeOrder(v)) {
            case Values.T_NULL -> out.write(NULL);
            case Values.T_BOOLEAN -> out.write(v.booleanValue() ? TRUE : FALSE);
            case Values.T_NUMBER -> {
                out.write(NUMBER);
                double d = v.doubleValue();
                long bits = Double.doubleToLongBits(d == 0 ? 0.0 : d);
                bits = bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
                for (int i = 7; i >= 0; i--) {
                    out.write((int) (bits >>> (8 * i)) & 0xFF);
                }
            }
            case Values.T_STRING -> {
                out.write(STRING);
                writeChars(out, truncated(v.textValue()));
                out.write(0x00);
                out.write(0x01);
            }
            default -> out.write(UNDEFINED);
        }
    }

    /**
     * The part of a string a term keeps. Long strings share a term with every string of the same leading
     * {@link #STRING_TERM_CHARS} characters; order is kept (non-decreasing), so lookups stay supersets and the
     * query's own evaluation removes the extra candidates. Partita's choice, to keep keys short.
     */
    static String truncated(String s) {
        return s.length() > STRING_TERM_CHARS ? s.substring(0, STRING_TERM_CHARS) : s;
    }

    /** UTF-16 code units big-endian (their order is the language's ordinal string order), 0x00 escaped. */
    static void writeChars(TermWriter out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            writeEscaped(out, c >>> 8);
            writeEscaped(out, c & 0xFF);
        }
    }

    private static void writeEscaped(TermWriter out, int b) {
        out.write(b);
        if (b == 0) {
            out.write(0xFF);
        }
    }

    // ---- reading a path's terms in order (ORDER BY through the index)

    /**
     * The entry keys {@code [from, to)} of one path's scalar terms (null, booleans, numbers, strings) that the bounds
     * leave possible, or null when they leave no scalar possible. Bounds with a value are taken inclusively at the
     * term level (a superset: truncated strings and large numbers share terms).
     */
    public static byte[][] scalarRange(int container, List<String> path, SortBounds bounds) {
        SortBounds.Point low = bounds.low();
        SortBounds.Point high = bounds.high();
        if (bounds.isEmpty() || low.type() > Values.T_STRING || high.type() < Values.T_NULL) {
            return null;
        }
        byte[] p = path(path);
        TermWriter from = new TermWriter(32);
        from.writeBytes(p);
        if (low.type() < Values.T_NULL) {
            from.write(NULL);
        } else if (low.value() == null) {
            from.write(typeStart(low.type()));
        } else {
            writeValue(from, low.value());
        }
        byte[] to;
        if (high.type() > Values.T_STRING) {
            to = StoreKeys.prefixEnd(StoreKeys.indexPrefix(container, p));
        } else {
            TermWriter t = new TermWriter(32);
            t.writeBytes(p);
            if (high.value() == null) {
                t.write(typeStart(high.type()) + typeWidth(high.type()));
                to = StoreKeys.indexPrefix(container, t.toByteArray());
            } else {
                writeValue(t, high.value());
                to = StoreKeys.prefixEnd(StoreKeys.indexPrefix(container, t.toByteArray()));
            }
        }
        return new byte[][] {StoreKeys.indexPrefix(container, from.toByteArray()), to};
    }

    /**
     * True when only one value (as the language compares values) has this term — null, booleans, numbers of magnitude
     * below 2^53 and strings shorter than {@value #STRING_TERM_CHARS} characters — so the items sharing it tie on it.
     *
     * @param term an entry key up to the end of its term ({@link #termOf})
     */
    public static boolean isExact(byte[] term) {
        int i = StoreKeys.indexTermOffset();
        while (term[i] != 0x00) {
            i++;
        }
        byte tag = term[++i];
        if (tag == NUMBER) {
            long bits = 0;
            for (int k = 1; k <= 8; k++) {
                bits = (bits << 8) | (term[i + k] & 0xFF);
            }
            bits = bits < 0 ? bits ^ Long.MIN_VALUE : ~bits;
            return Math.abs(Double.longBitsToDouble(bits)) < 0x1p53;
        }
        if (tag != STRING) {
            return true;
        }
        int units2 = 0; // bytes of UTF-16 code units, escapes not counted twice
        for (int k = i + 1; k < term.length - 2; k++) {
            units2++;
            if (term[k] == 0x00) {
                k++; // 00 FF stands for one 00 byte
            }
        }
        return units2 / 2 < STRING_TERM_CHARS;
    }

    /** The entry keys {@code [from, to)} of one path's undefined terms (see {@link IndexingPolicy#marksNonScalars}). */
    public static byte[][] undefinedRange(int container, List<String> path) {
        byte[] p = path(path);
        byte[] from = java.util.Arrays.copyOf(p, p.length + 1);
        from[p.length] = UNDEFINED;
        byte[] to = from.clone();
        to[p.length] = NULL;
        return new byte[][] {StoreKeys.indexPrefix(container, from), StoreKeys.indexPrefix(container, to)};
    }

    /** The first tag byte of a scalar type's terms. */
    static byte typeStart(int type) {
        return switch (type) {
            case Values.T_NULL -> NULL;
            case Values.T_BOOLEAN -> FALSE;
            case Values.T_NUMBER -> NUMBER;
            default -> STRING;
        };
    }

    /** How many tag values a type's terms start with (false and true are two). */
    static int typeWidth(int type) {
        return type == Values.T_BOOLEAN ? 2 : 1;
    }

    /**
     * The entry key up to the end of its term (path and value): equal for the entries of one value, and the first key
     * of that value's entries. Terms are prefix-free, so {@code prefixEnd} of it is the first key after them.
     */
    public static byte[] termOf(byte[] entry) {
        int i = StoreKeys.indexTermOffset();
        while (entry[i] != 0x00) {
            i++;
        }
        return java.util.Arrays.copyOf(entry, skipValue(entry, i + 1));
    }

    // ---- decoding entry keys

    /**
     * The string a string term holds (its first {@value #STRING_TERM_CHARS} characters), or null for a term of
     * another type.
     *
     * @param term an entry key up to the end of its term ({@link #termOf})
     */
    public static String stringOf(byte[] term) {
        int i = StoreKeys.indexTermOffset();
        while (term[i] != 0x00) {
            i++;
        }
        if (term[++i] != STRING) {
            return null;
        }
        StringBuilder out = new StringBuilder((term.length - i) / 2);
        int k = i + 1;
        while (k < term.length - 2) {
            int hi = term[k++] & 0xFF;
            if (hi == 0) {
                k++; // 00 FF stands for one 00 byte
            }
            int lo = term[k++] & 0xFF;
            if (lo == 0) {
                k++;
            }
            out.append((char) (hi << 8 | lo));
        }
        return out.toString();
    }

    /** True when a term's string may be the start of a longer one ({@link #truncated}). */
    public static boolean mayBeTruncated(String termString) {
        return termString.length() >= STRING_TERM_CHARS;
    }

    /** The item key an index entry points to. */
    public static byte[] itemKey(int container, byte[] entry) {
        int i = StoreKeys.indexTermOffset();
        while (entry[i] != 0x00) {
            i++;
        }
        i++; // path terminator
        i = skipValue(entry, i);
        int epkStart = i;
        while (entry[i] != 0x00) {
            i++;
        }
        String epk = new String(entry, epkStart, i - epkStart, StandardCharsets.US_ASCII);
        String id = new String(entry, i + 1, entry.length - i - 1, StandardCharsets.UTF_8);
        return StoreKeys.item(container, epk, id);
    }

    private static int skipValue(byte[] k, int i) {
        byte tag = k[i++];
        if (tag == NUMBER) {
            return i + 8;
        }
        if (tag != STRING) {
            return i;
        }
        while (true) {
            if (k[i] == 0x00) {
                if (k[i + 1] == 0x01) {
                    return i + 2;
                }
                i += 2;
            } else {
                i++;
            }
        }
    }
}
