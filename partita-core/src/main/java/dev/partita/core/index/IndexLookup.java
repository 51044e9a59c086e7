package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.StoreReader;
import dev.partita.sql.plan.IndexPredicates;
import dev.partita.sql.value.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The index key intervals one sargable predicate reads: sorted, disjoint {@code [from, to)} pairs. Bounds are taken
 * inclusively at the key level (a superset), so the engine must evaluate the full query on every candidate.
 *
 * @param predicate the predicate the intervals answer
 * @param ranges    the intervals, in key order; empty when the predicate can match nothing
 */
public record IndexLookup(IndexPredicates.Predicate predicate, List<byte[][]> ranges) {

    /**
     * The most selective predicate over an indexed path (equality, then fewer IN values, then prefix, then a string
     * function, then a closed range, then an open one), or null when none is indexed and the query must scan. An
     * equality on a path in {@code pinned} (the partition key the scope is already narrowed to) only reads that
     * logical partition again, so a prefix or a string function on another path goes before it.
     */
    public static IndexLookup choose(int container, IndexingPolicy policy, List<IndexPredicates.Predicate> predicates,
            List<List<String>> pinned) {
        IndexPredicates.Predicate best = null;
        for (IndexPredicates.Predicate p : predicates) {
            if (policy.indexesNames(p.path()) && (best == null || rank(p, pinned) < rank(best, pinned))) {
                best = p;
            }
        }
        return best == null ? null : new IndexLookup(best, ranges(container, best));
    }

    private static int rank(IndexPredicates.Predicate p, List<List<String>> pinned) {
        return switch (p) {
            case IndexPredicates.Equal e -> e.values().size() == 1 && pinned.contains(e.path()) ? 2_600
                    : e.values().size();
            case IndexPredicates.Prefix x -> 2_000;
            case IndexPredicates.StringMatch m -> 2_500;
            case IndexPredicates.Range r -> r.low() != null && r.high() != null ? 3_000 : 4_000;
        };
    }

    static List<byte[][]> ranges(int container, IndexPredicates.Predicate p) {
        byte[] path = IndexTerms.path(p.path());
        List<byte[][]> out = new ArrayList<>();
        switch (p) {
            case IndexPredicates.Equal e -> {
                for (JsonNode v : e.values()) {
                    out.add(prefix(container, concat(path, value(v))));
                }
                out.sort(Comparator.comparing(r -> r[0], Bytes.COMPARATOR));
                for (int i = out.size() - 1; i > 0; i--) {
                    if (Bytes.compare(out.get(i)[0], out.get(i - 1)[0]) == 0) {
                        out.remove(i);
                    }
                }
            }
            case IndexPredicates.Prefix x -> out.add(strings(container, path, x.prefix()));
            case IndexPredicates.StringMatch m -> out.add(strings(container, path, m.test().prefix()));
            case IndexPredicates.Range r -> {
                JsonNode typed = r.low() != null ? r.low() : r.high();
                if (typed == null || r.low() != null && r.high() != null
                        && Values.typeOrder(r.low()) != Values.typeOrder(r.high())) {
                    break; // values of different types never compare: nothing matches
                }
                byte[] from;
                if (r.low() == null) {
                    from = StoreKeys.indexPrefix(container, concat(path, new byte[] {typeStart(typed)}));
                } else {
                    from = StoreKeys.indexPrefix(container, concat(path, value(r.low())));
                    if (!r.lowInclusive() && exact(r.low())) {
                        from = Bytes.prefixEnd(from);
                    }
                }
                byte[] to;
                if (r.high() == null) {
                    to = StoreKeys.indexPrefix(container, concat(path, new byte[] {typeEnd(typed)}));
                } else {
                    to = StoreKeys.indexPrefix(container, concat(path, value(r.high())));
                    if (r.highInclusive() || !exact(r.high())) {
                        to = Bytes.prefixEnd(to);
                    }
                }
                if (Bytes.compare(from, to) < 0) {
                    out.add(new byte[][] {from, to});
                }
            }
        }
        return out;
    }

    /** The entries of one path's string terms that start with {@code prefix} (all its strings for ""). */
    private static byte[][] strings(int container, byte[] path, String prefix) {
        TermWriter b = new TermWriter(32);
        b.writeBytes(path);
        b.write(IndexTerms.STRING);
        IndexTerms.writeChars(b, IndexTerms.truncated(prefix));
        return prefix(container, b.toByteArray());
    }

    /**
     * The entries of one of {@link #ranges}: all of them, or for a string function only those of the terms it is true
     * for (the other entries are passed over without loading their items).
     */
    public IndexCursor open(StoreReader reader, byte[] from, byte[] to) {
        return predicate instanceof IndexPredicates.StringMatch m
                ? IndexCursor.matching(reader, from, to, m.test()::test)
                : IndexCursor.all(reader, from, to);
    }

    /**
     * True when only values equal to {@code v} share its term, so a strict bound may exclude the term: always but
     * for numbers of magnitude 2^53 or more (distinct integers round to one double) and strings long enough to be
     * truncated.
     */
    private static boolean exact(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue().length() < IndexTerms.STRING_TERM_CHARS;
        }
        return !v.isNumber() || Math.abs(v.doubleValue()) < 0x1p53;
    }

    private static byte typeStart(JsonNode v) {
        return IndexTerms.typeStart(Values.typeOrder(v));
    }

    private static byte typeEnd(JsonNode v) {
        int type = Values.typeOrder(v);
        return (byte) (IndexTerms.typeStart(type) + IndexTerms.typeWidth(type));
    }

    private static byte[][] prefix(int container, byte[] termPrefix) {
        byte[] from = StoreKeys.indexPrefix(container, termPrefix);
        return new byte[][] {from, Bytes.prefixEnd(from)};
    }

    private static byte[] value(JsonNode v) {
        TermWriter b = new TermWriter(16);
        IndexTerms.writeValue(b, v);
        return b.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
