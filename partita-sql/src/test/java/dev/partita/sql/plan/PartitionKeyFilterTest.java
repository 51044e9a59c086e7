package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.Sql;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.partita.sql.plan.PlanTestData.LENIENT;
import static org.assertj.core.api.Assertions.assertThat;

/** Partition-key points from the WHERE clause (query-plans.md §1.3, §2.15; rule: when unsure, fan out). */
class PartitionKeyFilterTest {
    private static final com.fasterxml.jackson.databind.node.ObjectNode FULL_RANGE =
            QueryPlan.range("", "FF", true, false);
    private static final List<String> ONE = List.of("/pk");
    private static final List<String> TWO = List.of("/tenant", "/user");

    private static String points(String query, List<String> paths) {
        return points(query, paths, Map.of());
    }

    private static String points(String query, List<String> paths, Map<String, JsonNode> params) {
        return QueryPlanner.plan(Sql.parse(query), paths, params).partitionKeyPoints()
                .map(p -> LENIENT.valueToTree(p).toString()).orElse("fan out");
    }

    @Test
    void equalityPinsOnePoint() {
        assertThat(points("SELECT * FROM c WHERE c.pk = 'p3'", ONE)).isEqualTo("[[\"p3\"]]");
        assertThat(points("SELECT * FROM c WHERE 'p3' = c.pk", ONE)).isEqualTo("[[\"p3\"]]");
        assertThat(points("SELECT * FROM c WHERE c[\"pk\"] = @p", ONE, Map.of("@p", TextNode.valueOf("x"))))
                .isEqualTo("[[\"x\"]]");
        assertThat(points("SELECT * FROM Root r WHERE r.pk = 5 AND r.n > 1", ONE)).isEqualTo("[[5]]");
        assertThat(points("SELECT * FROM c WHERE c.pk = null", ONE)).isEqualTo("[[null]]");
        assertThat(points("SELECT * FROM c WHERE c.pk = false", ONE)).isEqualTo("[[false]]");
        assertThat(points("SELECT * FROM c WHERE (c.n > 1 AND (c.pk = 'a')) AND true", ONE)).isEqualTo("[[\"a\"]]");
        assertThat(points("SELECT * FROM r WHERE r.a.b.c = 'x'", List.of("/a/b/c"))).isEqualTo("[[\"x\"]]");
        assertThat(points("SELECT * FROM c WHERE c[\"my key\"] = 1", List.of("/\"my key\""))).isEqualTo("[[1]]");
        assertThat(points("SELECT c.id FROM c JOIN t IN c.tags WHERE c.pk = 'a' AND t = 'x'", ONE))
                .isEqualTo("[[\"a\"]]");
    }

    @Test
    void inListsAndOrsGiveSeveralPoints() {
        assertThat(points("SELECT * FROM c WHERE c.pk IN ('p0', 'p3')", ONE)).isEqualTo("[[\"p0\"],[\"p3\"]]");
        assertThat(points("SELECT * FROM c WHERE c.pk = 'a' OR c.pk = 'b'", ONE)).isEqualTo("[[\"a\"],[\"b\"]]");
        assertThat(points("SELECT * FROM c WHERE c.pk IN ('a', 'b', 'a')", ONE)).isEqualTo("[[\"a\"],[\"b\"]]");
        assertThat(points("SELECT * FROM c WHERE c.pk IN ('a', 'b') AND c.pk = 'b'", ONE)).isEqualTo("[[\"b\"]]");
        assertThat(points("SELECT * FROM c WHERE c.pk = 5 OR c.pk = 5.0", ONE)).isEqualTo("[[5]]");
    }

    @Test
    void anythingElseFansOut() {
        for (String q : List.of(
                "SELECT * FROM c",
                "SELECT * FROM c WHERE c.n = 1",
                "SELECT * FROM c WHERE c.pk = 'a' OR c.n = 1",
                "SELECT * FROM c WHERE NOT (c.pk = 'a')",
                "SELECT * FROM c WHERE c.pk != 'a'",
                "SELECT * FROM c WHERE c.pk > 'a'",
                "SELECT * FROM c WHERE c.pk NOT IN ('a')",
                "SELECT * FROM c WHERE c.pk BETWEEN 'a' AND 'b'",
                "SELECT * FROM c WHERE LOWER(c.pk) = 'a'",
                "SELECT * FROM c WHERE STARTSWITH(c.pk, 'a')",
                "SELECT * FROM c WHERE c.pk = c.other",
                "SELECT * FROM c WHERE c.pk = {}",
                "SELECT * FROM c WHERE c.pk = [1]",
                "SELECT * FROM c WHERE c.pk = undefined",
                "SELECT * FROM c WHERE c.pk.x = 'a'",
                "SELECT * FROM c WHERE c.pk = @missing",
                "SELECT * FROM c WHERE c.pk = 'a' AND c.pk = 'b'",
                "SELECT * FROM c WHERE c.pk",
                "SELECT * FROM c.children ch WHERE ch.pk = 'a'",
                "SELECT * FROM x IN c.items WHERE x.pk = 'a'",
                "SELECT * FROM c WHERE (c.pk = 'a' ? true : false)")) {
            assertThat(points(q, ONE)).as(q).isEqualTo("fan out");
        }
        assertThat(points("SELECT * FROM c WHERE c.key[0] = 'blah'", List.of("/key[0]"))).isEqualTo("fan out");
        assertThat(points("SELECT * FROM c WHERE c.pk = @o", ONE, Map.of("@o", LENIENT.createObjectNode())))
                .isEqualTo("fan out");
    }

    @Test
    void hierarchicalKeysPinLeadingPrefixes() {
        assertThat(points("SELECT * FROM c WHERE c.tenant = 't' AND c.user = 'u'", TWO)).isEqualTo("[[\"t\",\"u\"]]");
        assertThat(points("SELECT * FROM c WHERE c.user = 'u' AND c.tenant = 't'", TWO)).isEqualTo("[[\"t\",\"u\"]]");
        assertThat(points("SELECT * FROM c WHERE c.tenant = 't'", TWO)).isEqualTo("[[\"t\"]]");
        assertThat(points("SELECT * FROM c WHERE c.user = 'u'", TWO)).isEqualTo("fan out");
        assertThat(points("SELECT * FROM c WHERE c.tenant IN ('a', 'b') AND c.user = 'u'", TWO))
                .isEqualTo("[[\"a\",\"u\"],[\"b\",\"u\"]]");
        // a prefix already covers the full keys it would contain
        assertThat(points("SELECT * FROM c WHERE c.tenant = 'a' OR (c.tenant = 'a' AND c.user = 'u')", TWO))
                .isEqualTo("[[\"a\"]]");
        assertThat(points("SELECT * FROM c WHERE c.tenant = 'a' OR c.user = 'u'", TWO)).isEqualTo("fan out");
    }

    @Test
    void tooManyPointsFanOut() {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i <= PartitionKeyFilter.MAX_POINTS; i++) {
            in.append(i == 0 ? "" : ", ").append(i);
        }
        assertThat(points("SELECT * FROM c WHERE c.pk IN (" + in + ")", ONE)).isEqualTo("fan out");
    }

    @Test
    void envelopeConvertsPointsSortsAndDeduplicatesRanges() {
        QueryPlan plan = QueryPlanner.plan(Sql.parse("SELECT * FROM c WHERE c.pk IN ('b', 'a', 'c')"), ONE, Map.of());
        ObjectNode json = plan.toJson(p -> {
            String v = p.get(0).asText();
            String epk = v.equals("a") ? "3F" : v.equals("b") ? "1A" : "3F"; // a and c collide on purpose
            return QueryPlan.range(epk, epk, true, true);
        }, FULL_RANGE);
        assertThat(json.get("queryRanges").toString()).isEqualTo("[{\"min\":\"1A\",\"max\":\"1A\",\"isMinInclusive\":"
                + "true,\"isMaxInclusive\":true},{\"min\":\"3F\",\"max\":\"3F\",\"isMinInclusive\":true,"
                + "\"isMaxInclusive\":true}]");
        assertThat(json.get("partitionedQueryExecutionInfoVersion")).isEqualTo(IntNode.valueOf(2));
    }
}
