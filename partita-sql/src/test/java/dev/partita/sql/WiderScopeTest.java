package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.docs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.eval.UndefinedAggregates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One range's rows of a cross-partition aggregate, given what the whole scope makes undefined. */
class WiderScopeTest {
    static final List<JsonNode> RANGE = docs("[{\"g\":\"x\",\"n\":1},{\"g\":\"y\",\"n\":2}]");
    static final List<JsonNode> OTHER = docs("[{\"g\":\"x\",\"n\":\"text\"},{\"g\":\"y\",\"n\":{\"a\":1}}]");

    private static List<String> rangeRows(String text) {
        SqlQuery q = Sql.parse(text);
        List<JsonNode> scope = new ArrayList<>(RANGE);
        scope.addAll(OTHER);
        UndefinedAggregates wider = q.undefinedAggregates(scope, Map.of(), CTX);
        return q.execute(RANGE, Map.of(), CTX, wider).stream().map(JsonNode::toString).toList();
    }

    @Test
    void aValueOfTheWrongTypeElsewhereMakesTheRangesAggregateUndefinedInItsGroupOnly() {
        assertThat(rangeRows("SELECT c.g, SUM(c.n) AS s, MIN(c.n) AS lo, COUNT(c.n) AS k FROM c GROUP BY c.g"))
                .as("a string elsewhere in x, an object in y").containsExactly("{\"g\":\"x\",\"lo\":1,\"k\":1}",
                        "{\"g\":\"y\",\"k\":1}");
        assertThat(Sql.parse("SELECT c.g, SUM(c.n) AS s FROM c GROUP BY c.g").execute(RANGE, Map.of(), CTX).toString())
                .as("without the scope").isEqualTo("[{\"g\":\"x\",\"s\":1}, {\"g\":\"y\",\"s\":2}]");
    }

    @Test
    void aValueAggregateUndefinedOverTheScopeGivesNoRow() {
        assertThat(rangeRows("SELECT VALUE [{\"item\": SUM(c.n), \"isPartial\": true}] FROM c")).isEmpty();
        assertThat(rangeRows("SELECT VALUE [{\"item\": COUNT(c.n)}] FROM c")).containsExactly("[{\"item\":2}]");
        assertThat(rangeRows("SELECT [{\"item\": c.g}] AS groupByItems, [{\"item\": MAX(c.n), \"item2\": {\"max\": "
                + "MAX(c.n), \"count\": COUNT(c.n)}}] AS payload FROM c GROUP BY c.g"))
                .as("y has an object; x's MAX is the other part's string").containsExactly("{\"groupByItems\":"
                        + "[{\"item\":\"x\"}],\"payload\":[{\"item2\":{\"count\":1}}]}");
    }

    @Test
    void onlyThePartHoldingTheScopesMinOrMaxReportsIt() {
        assertThat(rangeRows("SELECT MIN(c.n) AS lo, MAX(c.n) AS hi FROM c WHERE IS_PRIMITIVE(c.n)"))
                .as("the string is the scope's MAX").containsExactly("{\"lo\":1}");
    }

    @Test
    void anAliasedMinOrMaxUndefinedOverTheScopeKeepsItsPartial() {
        // the service sends the partial as computed: the JavaScript SDK's GROUP BY then keeps the alias, undefined
        assertThat(rangeRows("SELECT {\"hi\": {\"item\": MAX(c.n), \"item2\": {\"max\": MAX(c.n), \"count\": "
                + "COUNT(c.n)}}, \"k\": {\"item\": COUNT(1)}} AS payload FROM c"))
                .containsExactly("{\"payload\":{\"hi\":{\"item2\":{\"count\":2}},\"k\":{\"item\":2}}}");
    }

    @Test
    void aRangeThatIsTheWholeScopeLeavesOutItsOwnUndefinedValueAggregates() {
        SqlQuery q = Sql.parse("SELECT VALUE [{\"item\": {\"sum\": SUM(c.m), \"count\": COUNT(c.m)}}] FROM c");
        assertThat(q.execute(RANGE, Map.of(), CTX, SqlQuery.wholeScope())).isEmpty();
        assertThat(q.execute(RANGE, Map.of(), CTX).toString()).isEqualTo("[[{\"item\":{\"sum\":0,\"count\":0}}]]");
    }

    @Test
    void aGroupPrintsAnIntegralKeyAsAnInteger() {
        assertThat(Sql.parse("SELECT [{\"item\": c.k}] AS groupByItems FROM c GROUP BY c.k")
                .execute(docs("[{\"k\":1.0},{\"k\":[2.0,{\"a\":3.0}]}]"), Map.of(), CTX).toString())
                .isEqualTo("[{\"groupByItems\":[{\"item\":1}]}, {\"groupByItems\":[{\"item\":[2,{\"a\":3}]}]}]");
    }
}
