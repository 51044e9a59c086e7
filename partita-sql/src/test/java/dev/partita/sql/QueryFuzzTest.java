package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.docs;
import static dev.partita.sql.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.parse.QueryLimits;
import dev.partita.sql.plan.IndexPredicates;
import dev.partita.sql.plan.QueryPlanner;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * 5,000 generated hostile inputs (fixed seed): nesting of every kind up to far past the limits, long operator chains,
 * texts around the 512 KB limit, random regular expressions and LIKE patterns, truncations. Each goes through the
 * parser, validator, compiler, planner and evaluator on a thread with a request's 1 MB stack, and must give rows or a
 * {@link SqlException}: never another exception, a stack overflow or a hang (each input within 5 s, all well under 30).
 */
class QueryFuzzTest {
    /** Far above what any input takes (milliseconds): only a hang, never a slow machine, reaches it. */
    static final int HANG_SECONDS = 30;

    static final long SEED = 20261201L;
    static final int INPUTS = 5_000;
    static final String[] OPEN = {"(", "[", "{\"a\": ", "-", "NOT ", "~", "ABS(", "(SELECT VALUE ",
        "EXISTS(SELECT VALUE ", "ARRAY(SELECT VALUE ", "true ? ", "c.a[", "IS_DEFINED(", "[1, ", "(c.n + "};
    static final String[] CLOSE = {")", "]", "}", "", "", "", ")", ")", ")", ")", " : 1", "]", ")", "]", ")"};
    static final String[] OPERAND = {"1", "c.n", "c.s", "c.a", "c", "@p", "'x'", "null", "undefined", "[]", "{}",
        "c.a[0]", "c[\"s\"]", "2.5e3", "NaN", "(SELECT VALUE 1)", "COUNT(1)"};
    static final String[] BINARY = {" + ", " - ", " * ", " / ", " % ", " || ", " ?? ", " AND ", " OR ", " = ", " != ",
        " < ", " >= ", " & ", " | ", " ^ ", " << ", " >> ", " >>> "};
    static final String[] REGEX_PARTS = {"a", "(", ")", "+", "*", "?", "{2}", "{1000}", "{2,}", "|", ".", "^", "$",
        "[a-z]", "[^", "]", "\\\\d", "\\\\1", "(?=", "(?i)", "(?<n>", "\\\\Q", "\\\\E", "#", " ", "\\\\p{Greek}", "\\\\"};
    static final String[] LIKE_PARTS = {"%", "_", "[a-c]", "[^", "]", "a", "^", "[", "%a%"};
    static final List<JsonNode> DOCS = docs("[{id: '1', n: 5, s: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', a: [1, [2, [3]]]},"
            + "{id: '2', n: -1.5, s: 'ABC abc', a: {a: {a: 1}}}, {id: '3'}]");
    static final Map<String, JsonNode> PARAMS = Map.of("@p", json("{x: [1, 2, {y: 'z'}]}"));

    @Test
    void everyInputGivesRowsOrAQueryError() throws Exception {
        Random random = new Random(SEED);
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, "fuzz-1mb", 1024 * 1024);
            t.setDaemon(true);
            return t;
        });
        int answered = 0;
        try {
            for (int i = 0; i < INPUTS; i++) {
                String input = generate(random, i);
                Future<Boolean> run = worker.submit(() -> exercise(input));
                try {
                    if (run.get(HANG_SECONDS, TimeUnit.SECONDS)) {
                        answered++;
                    }
                } catch (TimeoutException e) {
                    throw new AssertionError("input #" + i + " (seed " + SEED + ") ran over " + HANG_SECONDS + " s (a hang): " + shorten(input));
                } catch (ExecutionException e) {
                    throw new AssertionError("input #" + i + " (seed " + SEED + ") threw " + e.getCause() + ": "
                            + shorten(input), e.getCause());
                }
            }
        } finally {
            worker.shutdownNow();
        }
        // the generators must reach the evaluator, not only the errors
        assertThat(answered).isGreaterThan(INPUTS / 10);
    }

    /** True when the query ran; false for its own error. Anything else escapes. */
    private static boolean exercise(String input) {
        try {
            SqlQuery q = input.startsWith("FROM") ? Sql.parseCondition(input) : Sql.parse(input);
            if (input.startsWith("FROM")) {
                for (JsonNode d : DOCS) {
                    q.matches(d, PARAMS, CTX);
                }
                return true;
            }
            q.execute(DOCS, PARAMS, CTX);
            QueryPlanner.plan(q, List.of("/id"), PARAMS);
            IndexPredicates.of(q.ast(), PARAMS);
            return true;
        } catch (SqlException expected) {
            assertThat(expected.getMessage()).isNotBlank();
            return false;
        }
    }

    private static String generate(Random r, int i) {
        return switch (i % 8) {
            case 0, 1 -> "SELECT VALUE " + nested(r, 1 + r.nextInt(r.nextBoolean() ? 40 : 400)) + " FROM c";
            case 2 -> "SELECT VALUE " + chain(r, 1 + r.nextInt(r.nextInt(8) == 0 ? 3_000 : 200)) + " FROM c";
            case 3 -> "SELECT * FROM c WHERE RegexMatch(c.s, '" + soup(r, REGEX_PARTS, 1 + r.nextInt(12)) + "'"
                    + (r.nextBoolean() ? ", '" + soup(r, new String[] {"i", "m", "s", "x", "q"}, r.nextInt(3)) + "'" : "")
                    + ")";
            case 4 -> "SELECT * FROM c WHERE c.s " + (r.nextBoolean() ? "NOT " : "") + "LIKE '"
                    + soup(r, LIKE_PARTS, 1 + r.nextInt(10)) + "'";
            case 5 -> "FROM c WHERE " + nested(r, 1 + r.nextInt(300));
            case 6 -> truncated(r, "SELECT VALUE " + nested(r, 1 + r.nextInt(200)) + " FROM c");
            default -> i % 512 == 7 ? huge(r) : "SELECT c.n, " + nested(r, r.nextInt(20)) + " AS v FROM c JOIN t IN c.a"
                    + " WHERE " + chain(r, 1 + r.nextInt(30)) + " ORDER BY c.n";
        };
    }

    /** Openers of random kinds, an operand, and (mostly) the matching closers. */
    private static String nested(Random r, int depth) {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int d = 0; d < depth; d++) {
            int k = r.nextInt(OPEN.length);
            open.append(OPEN[k]);
            close.insert(0, r.nextInt(50) == 0 ? CLOSE[r.nextInt(CLOSE.length)] : CLOSE[k]);
        }
        return open + OPERAND[r.nextInt(OPERAND.length)] + close;
    }

    private static String chain(Random r, int length) {
        StringBuilder b = new StringBuilder(OPERAND[r.nextInt(OPERAND.length)]);
        for (int n = 0; n < length; n++) {
            b.append(BINARY[r.nextInt(BINARY.length)]).append(OPERAND[r.nextInt(OPERAND.length)]);
        }
        return b.toString();
    }

    private static String soup(Random r, String[] parts, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(parts[r.nextInt(parts.length)]);
        }
        return b.toString();
    }

    private static String truncated(Random r, String text) {
        return text.substring(0, r.nextInt(text.length() + 1));
    }

    /**
     * A large text: a string on either side of 512 KB, an IN list or an array of 20,000 items, or an IN list past
     * 512 KB (refused by its size before it is read). A 512 KB list of 260,000 items parses, in about 3 s.
     */
    private static String huge(Random r) {
        int target = QueryLimits.DEFAULTS.maxQueryTextBytes() + (r.nextBoolean() ? -100 : 100);
        return switch (r.nextInt(4)) {
            case 0 -> "SELECT VALUE '" + "x".repeat(target - 16) + "'";
            case 1 -> "SELECT * FROM c WHERE c.n IN (" + "1,".repeat(20_000) + "1)";
            case 2 -> "SELECT * FROM c WHERE c.n IN (" + "1,".repeat(QueryLimits.DEFAULTS.maxQueryTextBytes() / 2) + "1)";
            default -> "SELECT VALUE [" + "[1],".repeat(20_000) + "1]";
        };
    }

    private static String shorten(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " chars)" : s;
    }
}
