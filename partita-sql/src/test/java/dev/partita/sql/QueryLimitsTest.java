package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.parse.QueryLimits;
import dev.partita.sql.plan.IndexPredicates;
import dev.partita.sql.plan.PartitionKeyFilter;
import dev.partita.sql.plan.QueryPlanner;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The query text limits: its size (512 KB, the service's documented maximum), how deeply brackets, prefix operators
 * and conditionals nest, and how deep the expression tree grows. Inputs past them are a {@link SqlException} (a 400 in
 * core), refused quickly; inputs just within them parse and run without exhausting a request thread's stack.
 */
class QueryLimitsTest {
    static final int NESTING = QueryLimits.DEFAULTS.maxNestingDepth();
    static final int EXPRESSION = QueryLimits.DEFAULTS.maxExpressionDepth();

    static IntFunction<String> shape(String name) {
        return switch (name) {
            case "array" -> n -> "SELECT VALUE " + "[".repeat(n) + "1" + "]".repeat(n);
            // binary operators are no deeper than their operands
            case "paren" -> n -> "SELECT VALUE " + "(".repeat(n) + "1 - 1 + 1" + ")".repeat(n);
            case "object" -> n -> "SELECT VALUE " + "{\"a\":".repeat(n) + "1" + "}".repeat(n);
            case "minus" -> n -> "SELECT VALUE " + "-".repeat(n) + "1";
            case "not" -> n -> "SELECT VALUE " + "NOT ".repeat(n) + "true";
            case "subquery" -> n -> "SELECT VALUE " + "(SELECT VALUE ".repeat(n) + "1" + ")".repeat(n);
            case "exists" -> n -> "SELECT VALUE " + "EXISTS(SELECT VALUE ".repeat(n) + "1" + ")".repeat(n);
            case "ternary" -> n -> "SELECT VALUE " + "true ? ".repeat(n) + "1" + " : 2".repeat(n);
            case "negatedParens" -> n -> "SELECT VALUE " + "-(".repeat(n) + "1" + ")".repeat(n);
            case "call" -> n -> "SELECT VALUE " + "ABS(".repeat(n) + "1" + ")".repeat(n);
            case "plus" -> n -> "SELECT VALUE 1" + "+1".repeat(n);
            case "or" -> n -> "SELECT * FROM c WHERE " + String.join(" OR ", Collections.nCopies(n, "c.id = 'x'"));
            case "member" -> n -> "SELECT VALUE c" + ".a".repeat(n) + " FROM c";
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"array", "paren", "object", "minus", "not", "subquery", "exists", "ternary",
        "negatedParens", "call"})
    void nestingPastTheLimitIsAQueryError(String name) {
        for (int n : new int[] {NESTING + 1, 500, 1_500, 10_000}) {
            String text = shape(name).apply(n);
            Throwable t = onSmallStack(() -> Sql.parse(text));
            assertThat(t).as("%s nested %d deep", name, n).isInstanceOf(SqlException.class)
                    .hasMessageContaining("nested too deeply").hasMessageContaining(String.valueOf(NESTING));
            SqlException e = (SqlException) t;
            assertThat(e.start()).as("the position of the level that passed the limit").isGreaterThan(0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"plus", "or", "member"})
    void expressionsDeeperThanTheLimitAreAQueryError(String name) {
        for (int n : new int[] {EXPRESSION + 1, 3_000, 30_000}) {
            String text = shape(name).apply(n);
            Throwable t = onSmallStack(() -> Sql.parse(text));
            assertThat(t).as("%s chained %d times", name, n).isInstanceOf(SqlException.class)
                    .hasMessageContaining("too deep").hasMessageContaining(String.valueOf(EXPRESSION));
        }
    }

    /**
     * The limits are exact: one level past is refused, and at the limit parsing, planning, index analysis and
     * evaluation all work on a 1 MB stack (a request's thread).
     */
    @ParameterizedTest
    @ValueSource(strings = {"array", "paren", "object", "minus", "not", "subquery", "exists", "ternary",
        "negatedParens", "call", "plus", "or", "member"})
    void theLimitsAreExactAndQueriesAtThemRunOnARequestThread(String name) {
        // the query is one level, each operator or member access one more, and so is the operand at the bottom; an
        // OR chain of n terms has n - 1 ORs over n comparisons of a member; "-(" is two levels of nesting a time
        int n = switch (name) {
            case "plus", "member" -> EXPRESSION - 2;
            case "or" -> EXPRESSION - 3;
            case "negatedParens" -> NESTING / 2;
            default -> NESTING;
        };
        String past = shape(name).apply(n + 1);
        assertThat(onSmallStack(() -> Sql.parse(past))).as("%s one level past the limit", name)
                .isInstanceOf(SqlException.class);
        String text = shape(name).apply(n);
        String filter = text.startsWith("SELECT * FROM c WHERE ") ? text.substring("SELECT * FROM c WHERE ".length())
                : text.substring("SELECT VALUE ".length()).replace(" FROM c", "");
        JsonNode item = json("{id: 'x', a: {a: 1}}");
        AtomicReference<List<JsonNode>> rows = new AtomicReference<>();
        Throwable t = onSmallStack(() -> {
            SqlQuery q = Sql.parse(text);
            rows.set(q.execute(List.of(item), Map.of(), CTX));
            QueryPlanner.plan(q, List.of("/id"), Map.of());
            IndexPredicates.of(q.ast(), Map.of());
            PartitionKeyFilter.points(q.ast(), List.of("/id"), Map.of());
            q.withoutPaging();
            q.withoutOrderByOrPaging();
            Sql.parseCondition("FROM c WHERE " + filter).matches(item, Map.of(), CTX);
        });
        assertThat(t).as(name).isNull();
        assertThat(rows.get()).as(name).isNotNull();
    }

    @Test
    void theDocumentedMaximumQuerySizeIsAccepted() {
        int max = QueryLimits.DEFAULTS.maxQueryTextBytes();
        assertThat(max).isEqualTo(512 * 1024);
        String head = "SELECT VALUE '";
        String text = head + "a".repeat(max - head.length() - 1) + "'";
        assertThat(Sql.parse(text).execute(List.of(), Map.of(), CTX)).hasSize(1);
    }

    @Test
    void aQueryLargerThanTheDocumentedMaximumIsAQueryError() {
        int max = QueryLimits.DEFAULTS.maxQueryTextBytes();
        String head = "SELECT VALUE '";
        String ascii = head + "a".repeat(max - head.length()) + "'";
        Throwable t = catchThrowable(() -> Sql.parse(ascii));
        assertThat(t).isInstanceOf(SqlException.class).hasMessageContaining("524288 bytes")
                .hasMessageNotContaining("aaaa");
        // the size is counted in UTF-8 bytes: 200,000 three-byte characters are 600,000 bytes
        String wide = head + "\u20ac".repeat(200_000) + "'";
        assertThat(wide.length()).isLessThan(max);
        assertThat(catchThrowable(() -> Sql.parse(wide))).isInstanceOf(SqlException.class)
                .hasMessageContaining("524288 bytes");
        assertThat(catchThrowable(() -> Sql.parseCondition("FROM c WHERE c.a = '" + "a".repeat(max) + "'")))
                .isInstanceOf(SqlException.class).hasMessageContaining("524288 bytes");
    }

    @Test
    void limitsCanBeLoweredOrRaisedPerCall() {
        QueryLimits small = new QueryLimits(64, 3, 10);
        assertThat(catchThrowable(() -> Sql.parse("SELECT VALUE [[[[1]]]]", small))).isInstanceOf(SqlException.class)
                .hasMessageContaining("3");
        assertThat(catchThrowable(() -> Sql.parse("SELECT VALUE " + "'x'".repeat(30), small)))
                .isInstanceOf(SqlException.class).hasMessageContaining("64 bytes");
        assertThat(catchThrowable(() -> Sql.parse("SELECT VALUE 1" + "+1".repeat(10), small)))
                .isInstanceOf(SqlException.class).hasMessageContaining("10");
        assertThat(Sql.parse("SELECT VALUE [[[1]]]", small).execute(List.of(), Map.of(), CTX)).hasSize(1);
    }

    /** Refusing a 10,000-deep input costs milliseconds, not seconds of CPU (the whole loop is 40 refusals). */
    @Test
    void deepInputsAreRefusedBeforeTheParserRecurses() {
        // how fast (about 1 ms each, warm) is a benchmark's question; here: refused, on a request-sized stack
        for (String name : List.of("array", "paren", "minus", "subquery", "plus", "or", "ternary", "member")) {
            for (int i = 0; i < 5; i++) {
                String text = shape(name).apply(10_000);
                assertThat(onSmallStack(() -> Sql.parse(text))).as(name).isInstanceOf(SqlException.class);
            }
        }
    }

    /** Runs on a platform thread with a 1 MB stack, as a request's thread has; returns what it threw, or null. */
    static Throwable onSmallStack(Runnable body) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "small-stack", 1024 * 1024);
        t.start();
        try {
            t.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertThat(t.isAlive()).as("finished within a minute").isFalse();
        return thrown.get();
    }
}
