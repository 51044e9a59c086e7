package dev.partita.sql.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.eval.Eval;
import dev.partita.sql.functions.FunctionEnv;

import java.util.ArrayList;
import java.util.List;

/**
 * The full-text functions over the text at a path, analysed in the path's language ({@link TextAnalysis}):
 * {@code FullTextContains(path, term)}, {@code FullTextContainsAll(path, t1, ...)}, {@code FullTextContainsAny}, where
 * a term is a string (a word or a phrase: its terms in sequence) or {@code {"term": "...", "distance": 0..2}} (each
 * term may differ from the text's by that many edits); {@code _FullTextWordCount(path)}, the number of terms; and
 * {@code _FullTextScore(path, [terms], documentCount, totalWordCount, [hitCounts])}, the BM25 score with the
 * corpus statistics the SDK gathered across all partitions ({@link Bm25}).
 */
final class FullTextFunctions {
    static final int MAX_FUZZY_DISTANCE = 2;

    private FullTextFunctions() {
    }

    /** One query term: its analysed terms and the edits allowed per term. */
    record Term(List<String> terms, int distance) {
    }

    static Eval contains(String name, Eval[] args, String[] paths, boolean all) {
        if (args.length < 2 || name.equalsIgnoreCase("FullTextContains") && args.length != 2) {
            throw new SqlException("SC2050", "The " + name.toUpperCase(java.util.Locale.ROOT) + " function requires "
                    + (name.equalsIgnoreCase("FullTextContains") ? "2" : "at least 2") + " argument(s).");
        }
        String path = paths[0];
        return f -> {
            List<String> text = text(args[0].eval(f), path, (FunctionEnv) f);
            if (text == null) {
                return BooleanNode.FALSE;
            }
            String language = language(path, (FunctionEnv) f);
            for (int i = 1; i < args.length; i++) {
                boolean found = occurrences(text, term(args[i].eval(f), language), true) > 0;
                if (found != all) {
                    return BooleanNode.valueOf(found);
                }
            }
            return BooleanNode.valueOf(all);
        };
    }

    static Eval wordCount(Eval[] args, String[] paths) {
        arity("_FullTextWordCount", args, 1);
        return f -> {
            List<String> text = text(args[0].eval(f), paths[0], (FunctionEnv) f);
            return LongNode.valueOf(text == null ? 0 : text.size());
        };
    }

    static Eval score(Eval[] args, String[] paths) {
        arity("_FullTextScore", args, 5);
        String path = paths[0];
        return f -> {
            FunctionEnv env = (FunctionEnv) f;
            JsonNode terms = args[1].eval(f);
            JsonNode hits = args[4].eval(f);
            JsonNode documents = args[2].eval(f);
            JsonNode words = args[3].eval(f);
            if (terms == null || !terms.isArray() || hits == null || !hits.isArray() || hits.size() != terms.size()
                    || documents == null || !documents.isNumber() || words == null || !words.isNumber()) {
                throw new SqlException("_FullTextScore needs the terms, the document count, the total word count "
                        + "and one hit count per term.");
            }
            List<String> text = text(args[0].eval(f), path, env);
            String language = language(path, env);
            Bm25 bm25 = new Bm25(documents.doubleValue(), words.doubleValue());
            double score = 0;
            if (text != null) {
                for (int i = 0; i < terms.size(); i++) {
                    int tf = occurrences(text, term(terms.get(i), language), false);
                    score += bm25.termScore(tf, text.size(), hits.get(i).doubleValue());
                }
            }
            return DoubleNode.valueOf(score);
        };
    }

    private static void arity(String name, Eval[] args, int n) {
        if (args.length != n) {
            throw new SqlException("SC2050", "The " + name.toUpperCase(java.util.Locale.ROOT) + " function requires "
                    + n + " argument(s).");
        }
    }

    private static String language(String path, FunctionEnv env) {
        return path == null ? SearchPolicy.DEFAULT_LANGUAGE : env.search().language(path);
    }

    private static List<String> text(JsonNode v, String path, FunctionEnv env) {
        if (v == null || !v.isTextual()) {
            return null;
        }
        List<String> terms = AnalysedText.of(v.textValue(), language(path, env));
        env.searchWork(terms.size());
        return terms;
    }

    static Term term(JsonNode t, String language) {
        if (t != null && t.isTextual()) {
            return new Term(TextAnalysis.terms(t.textValue(), language), 0);
        }
        if (t != null && t.isObject() && t.path("term").isTextual()) {
            JsonNode d = t.path("distance");
            if (!d.isMissingNode() && (!d.isIntegralNumber() || d.intValue() < 0 || d.intValue() > MAX_FUZZY_DISTANCE)) {
                throw new SqlException("The fuzzy search distance must be an integer from 0 to "
                        + MAX_FUZZY_DISTANCE + ".");
            }
            return new Term(TextAnalysis.terms(t.get("term").textValue(), language), d.asInt(0));
        }
        throw new SqlException("A full-text search term must be a string or an object {\"term\": string, "
                + "\"distance\": 0 to " + MAX_FUZZY_DISTANCE + "}.");
    }

    /** How often the term's terms occur in sequence in the text (stops at the first when {@code any}). */
    static int occurrences(List<String> text, Term term, boolean any) {
        List<String> q = term.terms();
        if (q.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i + q.size() <= text.size(); i++) {
            boolean match = true;
            for (int j = 0; j < q.size() && match; j++) {
                match = near(text.get(i + j), q.get(j), term.distance());
            }
            if (match) {
                n++;
                if (any) {
                    return n;
                }
            }
        }
        return n;
    }

    /** True when the two terms differ by at most {@code distance} edits (Levenshtein). */
    static boolean near(String a, String b, int distance) {
        if (distance == 0 || Math.abs(a.length() - b.length()) > distance) {
            return a.equals(b);
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()] <= distance;
    }

    /** The analysed terms of the last few texts per thread: one item's text is read by several calls in a row. */
    private static final class AnalysedText {
        private static final int SIZE = 8;
        private static final ThreadLocal<List<Object[]>> RECENT = ThreadLocal.withInitial(ArrayList::new);

        static List<String> of(String text, String language) {
            List<Object[]> recent = RECENT.get();
            for (Object[] e : recent) {
                if (e[0] == text && e[1].equals(language)) {
                    @SuppressWarnings("unchecked")
                    List<String> terms = (List<String>) e[2];
                    return terms;
                }
            }
            List<String> terms = TextAnalysis.terms(text, language);
            if (recent.size() == SIZE) {
                recent.remove(0);
            }
            recent.add(new Object[] {text, language, terms});
            return terms;
        }
    }
}
