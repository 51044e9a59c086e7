package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.partita.sql.plan.PlanTestData.PK;
import static dev.partita.sql.plan.PlanTestData.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the planner rejects (query-plans.md §4.1), and what it must never emit (§4.2). */
class PlanErrorsTest {
    private static final com.fasterxml.jackson.databind.node.ObjectNode FULL_RANGE =
            QueryPlan.range("", "FF", true, false);

    @Test
    void compositionsOfAggregates() {
        for (String q : List.of(
                "SELECT VALUE [SUM(c.n)] FROM c",
                "SELECT VALUE {'sum': SUM(c.n)} FROM c",
                "SELECT VALUE FLOOR(AVG(c.n)) FROM c",
                "SELECT VALUE MIN(c.n) / 2 FROM c",
                "SELECT ABS(AVG(c.n)) AS a FROM c",
                "SELECT c.cat, ABS(AVG(c.n)) AS a FROM c GROUP BY c.cat",
                "SELECT VALUE COUNT(1) + 1 FROM c WHERE c.pk = 'x'")) {
            assertThatThrownBy(() -> plan(q)).as(q).isInstanceOf(SqlException.class)
                    .hasMessage("Compositions of aggregates and other expressions are not allowed.");
        }
    }

    @Test
    void aggregatesTheJavaSdkCannotMergeAreUnsupportedFeatures() {
        assertThatThrownBy(() -> plan("SELECT VALUE MAKELIST(c.n) FROM c")).isInstanceOf(SqlException.class)
                .hasMessage("Query contains 1 or more unsupported features. Upgrade your SDK to a version that does "
                        + "support the requested features:\r\nQuery contained ListAndSetAggregate, which the calling "
                        + "client does not support.");
        assertThatThrownBy(() -> plan("SELECT MAKESET(c.n) AS s FROM c GROUP BY c.cat"))
                .hasMessageContaining("Query contained ListAndSetAggregate");
        assertThatThrownBy(() -> plan("SELECT VALUE COUNTIF(c.n > 1) FROM c"))
                .hasMessageContaining("Query contained CountIf, which the calling client does not support.");
        // a client that lists the feature gets the plan
        Set<String> features = new HashSet<>(QueryPlanner.JAVA_SDK_FEATURES);
        features.add("ListAndSetAggregate");
        QueryPlan p = QueryPlanner.plan(Sql.parse("SELECT VALUE MAKELIST(c.n) FROM c"), PK, Map.of(), features);
        assertThat(p.queryInfo().get("aggregates").toString()).isEqualTo("[\"MakeList\"]");
        assertThat(p.queryInfo().get("rewrittenQuery").asText())
                .isEqualTo("SELECT VALUE [{\"item\": MAKELIST(c.n)}]\nFROM c");
    }

    @Test
    void featuresMissingFromTheClientsHeader() {
        assertThatThrownBy(() -> QueryPlanner.plan(Sql.parse("SELECT c.cat FROM c GROUP BY c.cat ORDER BY c.cat"),
                PK, Map.of(), Set.of())).isInstanceOf(SqlException.class);
        assertThatThrownBy(() -> QueryPlanner.plan(Sql.parse("SELECT DISTINCT TOP 2 c.cat FROM c ORDER BY c.cat, c.n"),
                PK, Map.of(), Set.of("Top")))
                .hasMessageEndingWith("Query contained Distinct, which the calling client does not support.\r\n"
                        + "Query contained MultipleOrderBy, which the calling client does not support.");
        assertThatThrownBy(() -> QueryPlanner.plan(Sql.parse("SELECT COUNT(1) AS a, SUM(c.n) AS b FROM c"), PK,
                Map.of(), Set.of("Aggregate")))
                .hasMessageContaining("NonValueAggregate").hasMessageContaining("MultipleAggregates");
        assertThat(QueryPlanner.plan(Sql.parse("SELECT * FROM c"), PK, Map.of(), Set.of()).queryInfo()
                .get("rewrittenQuery").asText()).isEmpty();
    }

    @Test
    void theLanguagesOwnErrorsComeFromParsing() {
        assertThatThrownBy(() -> plan("SELECT * FROM c GROUP BY c.cat")).isInstanceOf(SqlException.class)
                .extracting(e -> ((SqlException) e).code()).isEqualTo("SC2041");
        assertThatThrownBy(() -> plan("SELECT * FROM c ORDER BY LOWER(c.x)"))
                .extracting(e -> ((SqlException) e).code()).isEqualTo("2206");
        assertThatThrownBy(() -> plan("SELECT c.cat FROM c GROUP BY c.cat ORDER BY c.cat"))
                .isInstanceOf(SqlException.class);
        assertThatThrownBy(() -> plan("SELECT TOP -1 * FROM c")).extracting(e -> ((SqlException) e).code())
                .isEqualTo("SC1001");
    }

    @Test
    void parametersThePlanNeeds() {
        assertThatThrownBy(() -> plan("SELECT TOP @n * FROM c")).hasMessageContaining("@n");
        assertThatThrownBy(() -> plan("SELECT * FROM c OFFSET @o LIMIT 2", Map.of("@o", (JsonNode) TextNode.valueOf(
                "x")))).extracting(e -> ((SqlException) e).code()).isEqualTo("SC2060");
    }

    @Test
    void fromSubqueriesThatAreNotPerItemRunInEachRange() {
        for (String q : List.of(
                "SELECT * FROM (SELECT TOP 5 * FROM c) s",
                "SELECT VALUE s FROM (SELECT DISTINCT VALUE c.cat FROM c) s WHERE s > 'a'",
                "SELECT VALUE x FROM (SELECT VALUE COUNT(1) FROM c) x",
                "SELECT * FROM (SELECT c.cat FROM c GROUP BY c.cat) g",
                "SELECT * FROM (SELECT * FROM c OFFSET 1 LIMIT 2) s")) {
            // the service runs the subquery per range; the outer query is planned as it stands
            QueryPlan p = plan(q);
            assertThat(p.queryInfo().get("distinctType").asText()).as(q).isEqualTo("None");
            assertThat(p.queryInfo().get("top").isNull()).as(q).isTrue();
        }
        assertThat(plan("SELECT DISTINCT VALUE s.cat FROM (SELECT TOP 5 * FROM c) s").queryInfo()
                .get("distinctType").asText()).isEqualTo("Unordered");
        QueryPlan p = plan("SELECT * FROM (SELECT TOP 5 * FROM c WHERE c.pk = 'a') s WHERE s.pk = 'a'");
        assertThat(p.queryInfo().get("rewrittenQuery").asText()).isEmpty();
        assertThat(p.partitionKeyPoints()).isPresent();
    }

    @Test
    void distinctOverGroupsNeedsTheKeysSelected() {
        assertThatThrownBy(() -> plan("SELECT DISTINCT COUNT(1) AS n FROM c GROUP BY c.cat"))
                .isInstanceOf(SqlException.class).hasMessageContaining("DISTINCT over GROUP BY");
        assertThat(plan("SELECT DISTINCT c.cat, COUNT(1) AS n FROM c GROUP BY c.cat").queryInfo()
                .get("distinctType").asText()).isEqualTo("None");
    }

    @Test
    void neverEmitsWhatTheJavaSdkCannotRead() {
        for (String q : PlanSimulationTest.QUERIES) {
            JsonNode info = plan(q).queryInfo();
            for (JsonNode a : info.get("aggregates")) {
                assertThat(a.asText()).isIn("Count", "Sum", "Min", "Max", "Average");
            }
            info.get("groupByAliasToAggregateType").forEach(a -> assertThat(a.isNull()
                    || List.of("Count", "Sum", "Min", "Max", "Average").contains(a.asText())).isTrue());
            assertThat(info.get("distinctType").asText()).isIn("None", "Ordered", "Unordered");
            assertThat(info.get("hasNonStreamingOrderBy").asBoolean()).isFalse();
            assertThat(plan(q).toJson(p -> QueryPlan.range("00", "00", true, true), FULL_RANGE).get("queryRanges")).isNotEmpty();
        }
    }
}
