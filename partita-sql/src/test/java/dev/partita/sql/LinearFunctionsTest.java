package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.json;
import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One call of a built-in function runs to its end: the query's time budget is checked between items and rows, not
 * inside a call. So every function is linear (or n log n) in its arguments — a quadratic search over arguments of a
 * megabyte held a core for hours in one request — and one whose result could outgrow the heap refuses with a 400.
 * The timeouts are hang detectors (a quadratic version takes minutes to hours on these arguments); speed is a
 * benchmark's concern.
 */
class LinearFunctionsTest {
    private static final String ALMOST = "a".repeat(200_000) + "b";
    private static final String HAY = "a".repeat(400_000);

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void stringSearchesWithALongNeedleThatAlmostMatches() {
        Map<String, JsonNode> p = Map.of("@s", json("'" + HAY + "'"), "@t", json("'" + ALMOST + "'"),
                "@m", json("'" + ALMOST.toUpperCase() + "'"));
        assertThat(run("SELECT VALUE [INDEX_OF(@s, @t), INDEX_OF(@s, @t, 5), LASTINDEXOF(@s, @t), LASTINDEXOF(@s, @t,"
                + " 300000), CONTAINS(@s, @t), CONTAINS(@s, @m, true), CONTAINS_ANY_CI(@s, @m, 'x'),"
                + " CONTAINS_ALL_CS(@s, @t)]", "[]", p))
                .isEqualTo("[[-1,-1,-1,-1,false,false,false,false]]");
        assertThat(run("SELECT VALUE [LENGTH(REPLACE(@s, @t, 'x')), ARRAY_LENGTH(StringSplit(@s, @t))]", "[]", p))
                .isEqualTo("[[400000,1]]");
        // and a long needle that does occur, found where String.indexOf finds it
        Map<String, JsonNode> q = Map.of("@s", json("'" + HAY + ALMOST + HAY + ALMOST + "'"), "@t", json("'" + ALMOST + "'"));
        assertThat(run("SELECT VALUE [INDEX_OF(@s, @t), LASTINDEXOF(@s, @t), ARRAY_LENGTH(StringSplit(@s, @t)),"
                + " LENGTH(REPLACE(@s, @t, 'xy'))]", "[]", q))
                .isEqualTo("[[400000,1000001,3,800004]]");
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void setFunctionsOfLongArrays() {
        Map<String, JsonNode> p = Map.of("@a", numbers(0, 100_000), "@b", numbers(50_000, 150_000),
                "@o", json(IntStream.range(0, 40_000).mapToObj(i -> "{k:" + i + "}")
                        .collect(Collectors.joining(",", "[", "]"))));
        assertThat(run("SELECT VALUE [ARRAY_LENGTH(SetIntersect(@a, @b)), ARRAY_LENGTH(SetUnion(@a, @b)),"
                + " ARRAY_LENGTH(SetDifference(@a, @b)), SetEqual(@a, @b), SetEqual(@a, SetUnion(@a, @a)),"
                + " ARRAY_LENGTH(SetUnion(@o, @o)), ARRAY_LENGTH(SetIntersect(@o, [{k: 7}, {k: 7}, {k: -1}]))]",
                "[]", p)).isEqualTo("[[50000,150000,50000,false,true,40000,1]]");
    }

    @Test
    void setFunctionsKeepTheirOrderAndEquality() {
        assertThat(run("SELECT VALUE [SetIntersect([3, 1, 2, 1], [2, 1.0, 1, 5]), SetUnion([1, 'a', [1]], [[1], 1, 2]),"
                + " SetDifference([{a: 1}, {a: 2}, {a: 1}], [{a: 2}])]"))
                .isEqualTo("[[[2,1.0],[1,\"a\",[1],2],[{\"a\":1}]]]");
    }

    @Test
    void aReplaceWhoseResultWouldOutgrowTheHeapIsRefused() {
        Map<String, JsonNode> p = Map.of("@s", json("'" + "x".repeat(1_000_000) + "'"),
                "@r", json("'" + "y".repeat(100) + "'"));
        assertThatThrownBy(() -> run("SELECT VALUE LENGTH(REPLACE(@s, 'x', @r))", "[]", p))
                .isInstanceOf(SqlException.class).hasMessageContaining("REPLACE would be 100000000 characters long");
    }

    @Test
    void stringsAQueryBuildsAreBounded() {
        Map<String, JsonNode> p = Map.of("@s", json("'" + "x".repeat(1 << 20) + "'"));
        String seventeen = "[{n: " + numbers(0, 17) + ", m: " + numbers(0, 16) + "}]";
        String[] builders = {
            "StringJoin(ARRAY(SELECT VALUE @s FROM a IN c.n), '')",
            "CONCAT(@s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s, @s)",
            "(@s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s || @s)",
            "ToString(ARRAY(SELECT VALUE @s FROM a IN c.n))",
        };
        for (String b : builders) {
            assertThatThrownBy(() -> run("SELECT VALUE LENGTH(" + b + ") FROM c", seventeen, p)).as(b)
                    .isInstanceOf(SqlException.class).hasMessageContaining("more than the 16777216");
        }
        // at the bound they still build
        assertThat(run("SELECT VALUE [LENGTH(StringJoin(ARRAY(SELECT VALUE @s FROM a IN c.m), '')),"
                + " LENGTH(CONCAT(@s, @s)), LENGTH(@s || @s), LENGTH(ToString([@s, @s]))] FROM c", seventeen, p))
                .isEqualTo("[[16777216,2097152,2097152,2097159]]");
    }

    @Test
    void aNumberFunctionsEdgeCaseIsAValueOrAQueryError() {
        assertThat(run("SELECT VALUE [NumberBin(1e308, 1e-308), NumberBin(-1e308, 1e-308), NumberBin(7, 0)]"))
                .isEqualTo("[[\"Infinity\",\"-Infinity\"]]");
    }

    /**
     * The spatial functions compare every pair of points or edges, which no linear algorithm replaces for distance:
     * their one call reports its steps and ends at the query's deadline, and a call of literals too long to fold
     * while the query compiles (where there is no deadline yet) is left to the evaluation, which has one.
     */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLongSpatialCallEndsAtTheQuerysDeadline() {
        Map<String, JsonNode> p = Map.of("@p", lineString(20_000, 0), "@q", lineString(20_000, 1));
        for (String call : new String[] {"ST_DISTANCE(@p, @q)", "ST_INTERSECTS(@p, @q)"}) {
            assertThatThrownBy(() -> withDeadline("SELECT VALUE " + call, p))
                    .as(call).isInstanceOf(SqlException.class)
                    .extracting(e -> ((SqlException) e).code()).isEqualTo(SqlException.TIMEOUT);
        }
        String literals = "SELECT VALUE ST_DISTANCE(" + lineString(5_000, 0) + ", " + lineString(5_000, 1) + ")";
        assertThatThrownBy(() -> withDeadline(literals, Map.of())).isInstanceOf(SqlException.class)
                .extracting(e -> ((SqlException) e).code()).isEqualTo(SqlException.TIMEOUT);
        // small shapes still answer, folded or not
        assertThat(run("SELECT VALUE ST_INTERSECTS(" + lineString(3, 0) + ", " + lineString(3, 0) + ")"))
                .isEqualTo("[true]");
    }

    private static java.util.List<JsonNode> withDeadline(String query, Map<String, JsonNode> params) {
        java.time.Clock clock = java.time.Clock.systemUTC();
        return Sql.parse(query).execute(java.util.List.of(), params,
                EvalContext.of(clock).withDeadline(clock.millis() + 300));
    }

    private static JsonNode lineString(int points, double latitude) {
        return json(IntStream.range(0, points).mapToObj(i -> "[" + (i * 1e-4) + "," + (latitude + (i % 2) * 1e-4) + "]")
                .collect(Collectors.joining(",", "{type: 'LineString', coordinates: [", "]}")));
    }

    private static JsonNode numbers(int from, int to) {
        return json(IntStream.range(from, to).mapToObj(Integer::toString).collect(Collectors.joining(",", "[", "]")));
    }
}
