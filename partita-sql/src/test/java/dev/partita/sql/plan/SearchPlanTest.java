package dev.partita.sql.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import dev.partita.sql.search.SearchPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchPlanTest {
    private static ObjectNode plan(String q) {
        return QueryPlanner.plan(Sql.parse(q), List.of("/pk"), Map.of(), QueryPlanner.JAVA_SDK_FEATURES,
                SearchPolicy.NONE).toJson(p -> null, QueryPlan.range("", "FF", true, false));
    }

    @Test
    void vectorOrderByIsANonStreamingOrderBy() {
        JsonNode info = plan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.v, [1, 2])").get("queryInfo");
        assertThat(info.get("hasNonStreamingOrderBy").asBoolean()).isTrue();
        assertThat(info.get("top").asInt()).isEqualTo(3);
        assertThat(info.get("orderBy").toString()).isEqualTo("[\"Descending\"]");
        assertThat(info.get("rewrittenQuery").asText()).startsWith("SELECT TOP 3 c._rid, [{\"item\": "
                + "VectorDistance(c.v, [1, 2])}] AS orderByItems, {\"id\": c.id} AS payload");
        JsonNode euclid = plan("SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.v, [1, 2], false, "
                + "{distanceFunction: 'euclidean'})").get("queryInfo");
        assertThat(euclid.get("orderBy").toString()).isEqualTo("[\"Ascending\"]");
    }

    @Test
    void anUnboundedVectorOrderByIsPlannedWithoutTopOrLimit() {
        // the SDKs refuse it themselves on seeing no bound (JS: unless allowUnboundedNonStreamingQueries)
        JsonNode info = plan("SELECT c.id FROM c ORDER BY VectorDistance(c.v, [1, 2])").get("queryInfo");
        assertThat(info.get("hasNonStreamingOrderBy").asBoolean()).isTrue();
        assertThat(info.path("top").isNull() || info.path("top").isMissingNode()).isTrue();
        assertThat(info.path("limit").isNull() || info.path("limit").isMissingNode()).isTrue();
        assertThat(info.get("rewrittenQuery").asText()).startsWith("SELECT c._rid, [{\"item\": ")
                .doesNotContain("LIMIT");
    }

    @Test
    void rrfIsAHybridPlanWithGlobalStatisticsAndWeights() {
        JsonNode h = plan("SELECT TOP 10 c.id FROM c WHERE c.n > 1 ORDER BY RANK RRF(FullTextScore(c.t, 'a', 'b'), "
                + "VectorDistance(c.v, [1, 2]), [2, 1])").get("hybridSearchQueryInfo");
        assertThat(h.get("globalStatisticsQuery").asText()).isEqualTo("SELECT COUNT(1) AS documentCount, "
                + "[{\"totalWordCount\": SUM(_FullTextWordCount(c.t)), \"hitCounts\": [COUNTIF(FullTextContains(c.t, "
                + "\"a\")), COUNTIF(FullTextContains(c.t, \"b\"))]}] AS fullTextStatistics\nFROM c");
        assertThat(h.get("take").asInt()).isEqualTo(10);
        assertThat(h.get("requiresGlobalStatistics").asBoolean()).isTrue();
        assertThat(h.get("componentWeights").toString()).isEqualTo("[2.0,1.0]");
        JsonNode text = h.get("componentQueryInfos").get(0);
        assertThat(text.get("top").asInt()).isEqualTo(120);
        assertThat(text.get("orderByExpressions").get(0).asText()).isEqualTo("_FullTextScore(c.t, [\"a\", \"b\"], "
                + "{documentdb-formattablehybridsearchquery-totaldocumentcount}, "
                + "{documentdb-formattablehybridsearchquery-totalwordcount-0}, "
                + "{documentdb-formattablehybridsearchquery-hitcountsarray-0})");
        assertThat(text.get("rewrittenQuery").asText()).contains("WHERE (c.n > 1) AND "
                + "({documentdb-formattableorderbyquery-filter})");
        assertThat(h.get("componentQueryInfos").get(1).get("orderByExpressions").get(0).asText())
                .isEqualTo("_VectorScore(c.v, [1, 2])");
    }

    @Test
    void hybridSearchNeedsTheFeature() {
        assertThatThrownBy(() -> QueryPlanner.plan(Sql.parse("SELECT TOP 1 * FROM c ORDER BY RANK FullTextScore(c.t, "
                + "'a')"), List.of("/pk"), Map.of(), java.util.Set.of("OrderBy", "Top"), SearchPolicy.NONE))
                .isInstanceOf(SqlException.class).hasMessageContaining("HybridSearch");
    }
}
