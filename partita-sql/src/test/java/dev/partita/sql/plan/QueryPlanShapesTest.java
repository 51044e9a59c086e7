package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.partita.sql.plan.PlanTestData.docRanges;
import static dev.partita.sql.plan.PlanTestData.ids;
import static dev.partita.sql.plan.PlanTestData.json;
import static dev.partita.sql.plan.PlanTestData.plan;
import static dev.partita.sql.plan.PlanTestData.simulate;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every shape of query-plans.md §2: the queryInfo against the doc's example (all fields, in the real planner's
 * order), the per-range rows of the rewritten text against the doc's rows, and the SDK's merged result over the
 * §0 dataset against the doc's result.
 */
class QueryPlanShapesTest {
    private static final com.fasterxml.jackson.databind.node.ObjectNode FULL_RANGE =
            QueryPlan.range("", "FF", true, false);
    private static final List<String> FIELDS = List.of("distinctType", "top", "offset", "limit", "orderBy",
            "orderByExpressions", "groupByExpressions", "groupByAliases", "aggregates", "groupByAliasToAggregateType",
            "rewrittenQuery", "hasSelectValue", "dCountInfo", "hasNonStreamingOrderBy");

    /** The all-empty queryInfo of §1.1 with the given fields replaced. */
    private static ObjectNode info(String overrides) {
        ObjectNode o = (ObjectNode) json("{distinctType:'None',top:null,offset:null,limit:null,orderBy:[],"
                + "orderByExpressions:[],groupByExpressions:[],groupByAliases:[],aggregates:[],"
                + "groupByAliasToAggregateType:{},rewrittenQuery:'',hasSelectValue:false,dCountInfo:null,"
                + "hasNonStreamingOrderBy:false}");
        json(overrides).properties().forEach(e -> o.set(e.getKey(), e.getValue()));
        return o;
    }

    private static void assertInfo(String query, Map<String, JsonNode> params, String expected) {
        ObjectNode actual = plan(query, params).queryInfo();
        List<String> names = new ArrayList<>();
        actual.fieldNames().forEachRemaining(names::add);
        assertThat(names).as("field order").isEqualTo(FIELDS);
        ObjectNode exp = info(expected);
        for (String f : FIELDS) {
            assertThat(actual.get(f).toString()).as(f).isEqualTo(exp.get(f).toString());
        }
    }

    private static void assertInfo(String query, String expected) {
        assertInfo(query, Map.of(), expected);
    }

    /** The rows range {@code r} of the §0 dataset returns for the plan's text (placeholder = true). */
    private static List<JsonNode> rangeRows(String query, int r) {
        QueryPlan p = plan(query);
        return SdkPipeline.perRange(query, Map.of(), p.queryInfo(), docRanges(), List.of("true", "true", "true")).get(r);
    }

    private static List<JsonNode> result(String query) {
        return simulate(query, Map.of(), docRanges());
    }

    private static List<JsonNode> result(String query, Map<String, JsonNode> params) {
        return simulate(query, params, docRanges());
    }

    // ------------------------------------------------------------------ §1.1

    @Test
    void groupByEnvelope_1_1() {
        String q = "SELECT c.cat, COUNT(1) AS cnt FROM c GROUP BY c.cat";
        assertInfo(q, "{groupByExpressions:['c.cat'],groupByAliases:['cat','cnt'],"
                + "groupByAliasToAggregateType:{cat:null,cnt:'Count'},rewrittenQuery:'SELECT [{\"item\": c.cat}] AS "
                + "groupByItems, {\"cat\": c.cat, \"cnt\": {\"item\": COUNT(1)}} AS payload\\nFROM c\\nGROUP BY c.cat'}");
        ObjectNode envelope = plan(q).toJson(p -> { throw new AssertionError("no points expected"); }, FULL_RANGE);
        assertThat(envelope.toString()).startsWith("{\"partitionedQueryExecutionInfoVersion\":2,\"queryInfo\":{")
                .endsWith("\"queryRanges\":[{\"min\":\"\",\"max\":\"FF\",\"isMinInclusive\":true,"
                        + "\"isMaxInclusive\":false}]}");
    }

    @Test
    void plainQueryNeedsNoClientWork() {
        assertInfo("SELECT * FROM c", "{}");
        assertInfo("SELECT c.id FROM c WHERE c.n > 1", "{}");
        assertInfo("SELECT VALUE c.id FROM c", "{hasSelectValue:true}");
    }

    // ------------------------------------------------------------------ §2.1 - §2.5 ORDER BY

    @Test
    void orderByOneKey_2_1() {
        String q = "SELECT * FROM c ORDER BY c.n";
        assertInfo(q, "{orderBy:['Ascending'],orderByExpressions:['c.n'],rewrittenQuery:'SELECT c._rid, "
                + "[{\"item\": c.n}] AS orderByItems, c AS payload\\nFROM c\\nWHERE "
                + "({documentdb-formattableorderbyquery-filter})\\nORDER BY c.n'}");
        List<JsonNode> range2 = rangeRows(q, 2);
        assertThat(range2.get(0).get("orderByItems").toString()).isEqualTo("[{}]");
        assertThat(range2.get(0).get("payload").get("id").asText()).isEqualTo("d11");
        assertThat(range2.get(1).get("orderByItems").toString()).isEqualTo("[{\"item\":3}]");
        assertThat(range2.get(1).get("_rid").asText()).isEqualTo(range2.get(1).get("payload").get("_rid").asText());
        assertThat(ids(result(q))).containsExactly("d11", "d3", "d6", "d1", "d9", "d5", "d0", "d7", "d2", "d8", "d4",
                "d10");
    }

    @Test
    void orderByTwoKeysProjectionMixedDirections_2_2() {
        String q = "SELECT c.id, c.n, c.m FROM c ORDER BY c.n DESC, c.m ASC";
        assertInfo(q, "{orderBy:['Descending','Ascending'],orderByExpressions:['c.n','c.m'],rewrittenQuery:"
                + "'SELECT c._rid, [{\"item\": c.n}, {\"item\": c.m}] AS orderByItems, {\"id\": c.id, \"n\": c.n, "
                + "\"m\": c.m} AS payload\\nFROM c\\nWHERE ({documentdb-formattableorderbyquery-filter})\\n"
                + "ORDER BY c.n DESC, c.m ASC'}");
        JsonNode d2 = rangeRows(q, 2).stream().filter(r -> r.get("payload").get("id").asText().equals("d2"))
                .findFirst().orElseThrow();
        assertThat(d2.get("orderByItems").toString()).isEqualTo("[{\"item\":5},{\"item\":0}]");
        assertThat(d2.get("payload").toString()).isEqualTo("{\"id\":\"d2\",\"n\":5,\"m\":0}");
        JsonNode d11 = rangeRows(q, 2).get(2);
        assertThat(d11.get("orderByItems").toString()).isEqualTo("[{},{\"item\":6}]");
        assertThat(d11.get("payload").toString()).isEqualTo("{\"id\":\"d11\",\"m\":6}");
        assertThat(ids(result(q))).containsExactly("d10", "d4", "d8", "d2", "d0", "d7", "d9", "d1", "d5", "d6", "d3",
                "d11");
    }

    @Test
    void orderByWithWhereParametersAndValue_2_3() {
        String q = "SELECT VALUE c.id FROM c WHERE c.n >= @min ORDER BY c.n";
        Map<String, JsonNode> params = Map.of("@min", IntNode.valueOf(3));
        assertInfo(q, params, "{orderBy:['Ascending'],orderByExpressions:['c.n'],hasSelectValue:true,rewrittenQuery:"
                + "'SELECT c._rid, [{\"item\": c.n}] AS orderByItems, c.id AS payload\\nFROM c\\nWHERE (((c.n >= @min) "
                + "AND ({documentdb-formattableorderbyquery-filter})) AND IS_DEFINED(c.id))\\nORDER BY c.n'}");
        assertThat(ids(result(q, params))).containsExactly("d1", "d9", "d5", "d0", "d7", "d2", "d8", "d4", "d10");
    }

    @Test
    void topWithOrderBy_2_4() {
        String q = "SELECT TOP 4 c.id, c.n FROM c ORDER BY c.n";
        assertInfo(q, "{top:4,orderBy:['Ascending'],orderByExpressions:['c.n'],rewrittenQuery:'SELECT TOP 4 c._rid, "
                + "[{\"item\": c.n}] AS orderByItems, {\"id\": c.id, \"n\": c.n} AS payload\\nFROM c\\nWHERE "
                + "({documentdb-formattableorderbyquery-filter})\\nORDER BY c.n'}");
        assertThat(ids(result(q))).containsExactly("d11", "d3", "d6", "d1");
    }

    @Test
    void offsetLimitWithOrderBy_2_5() {
        String q = "SELECT c.id, c.n FROM c ORDER BY c.n OFFSET 2 LIMIT 3";
        assertInfo(q, "{offset:2,limit:3,orderBy:['Ascending'],orderByExpressions:['c.n'],rewrittenQuery:'SELECT "
                + "c._rid, [{\"item\": c.n}] AS orderByItems, {\"id\": c.id, \"n\": c.n} AS payload\\nFROM c\\nWHERE "
                + "({documentdb-formattableorderbyquery-filter})\\nORDER BY c.n\\nOFFSET 0 LIMIT 5'}");
        assertThat(rangeRows(q, 0)).hasSize(5);
        assertThat(ids(result(q))).containsExactly("d6", "d1", "d9");
    }

    // ------------------------------------------------------------------ §2.6 - §2.10

    @Test
    void topWithoutOrderBy_2_6() {
        String q = "SELECT TOP 3 c.id FROM c";
        assertInfo(q, "{top:3}");
        assertThat(ids(result(q))).containsExactly("d0", "d1", "d4");
    }

    @Test
    void offsetLimitWithoutOrderBy_2_7() {
        String q = "SELECT c.id FROM c OFFSET 2 LIMIT 3";
        assertInfo(q, "{offset:2,limit:3,rewrittenQuery:'SELECT c.id\\nFROM c\\nOFFSET 0 LIMIT 5'}");
        assertThat(ids(result(q))).containsExactly("d4", "d6", "d8");
        // parameterized OFFSET/LIMIT come back as literal numbers, the rewrite uses their sum (REAL-PLAN)
        assertInfo("SELECT * FROM c OFFSET @o LIMIT @l", Map.of("@o", IntNode.valueOf(42), "@l",
                IntNode.valueOf(1337)), "{offset:42,limit:1337,rewrittenQuery:'SELECT *\\nFROM c\\nOFFSET 0 LIMIT 1379'}");
    }

    @Test
    void distinctWithoutOrderBy_2_8() {
        assertInfo("SELECT DISTINCT c.cat FROM c", "{distinctType:'Unordered'}");
        assertInfo("SELECT DISTINCT VALUE c.cat FROM c", "{distinctType:'Unordered',hasSelectValue:true}");
        assertThat(text(rangeRows("SELECT DISTINCT VALUE c.cat FROM c", 1))).isEqualTo("[\"c\",\"b\"]");
        assertThat(text(result("SELECT DISTINCT c.cat FROM c")))
                .isEqualTo("[{\"cat\":\"a\"},{\"cat\":\"b\"},{\"cat\":\"c\"}]");
    }

    @Test
    void distinctWithOrderBy_2_9() {
        String q = "SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.cat";
        assertInfo(q, "{distinctType:'Ordered',orderBy:['Ascending'],orderByExpressions:['c.cat'],hasSelectValue:true,"
                + "rewrittenQuery:'SELECT c._rid, [{\"item\": c.cat}] AS orderByItems, c.cat AS payload\\nFROM c\\n"
                + "WHERE (({documentdb-formattableorderbyquery-filter}) AND IS_DEFINED(c.cat))\\nORDER BY c.cat'}");
        assertThat(rangeRows(q, 0).stream().map(r -> r.get("payload").asText()).toList())
                .containsExactly("a", "a", "a", "b", "b", "c");
        assertThat(text(result(q))).isEqualTo("[\"a\",\"b\",\"c\"]");
        String objectForm = "SELECT DISTINCT c.cat FROM c ORDER BY c.cat";
        assertThat(plan(objectForm).queryInfo().get("distinctType").asText()).isEqualTo("Ordered");
        assertThat(text(result(objectForm))).isEqualTo("[{\"cat\":\"a\"},{\"cat\":\"b\"},{\"cat\":\"c\"}]");
        // a projection that does not determine the sort keys: duplicates need not be adjacent (DESIGNED)
        assertThat(plan("SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.n").queryInfo().get("distinctType").asText())
                .isEqualTo("Unordered");
    }

    @Test
    void distinctTop_2_10() {
        String q = "SELECT DISTINCT TOP 2 VALUE c.cat FROM c";
        assertInfo(q, "{distinctType:'Unordered',top:2,hasSelectValue:true,rewrittenQuery:"
                + "'SELECT DISTINCT VALUE c.cat\\nFROM c'}");
        assertThat(text(result(q))).isEqualTo("[\"a\",\"b\"]");
    }

    // ------------------------------------------------------------------ §2.11 - §2.12 aggregates

    @Test
    void valueAggregates_2_11() {
        String[][] cases = {
                {"SELECT VALUE COUNT(1) FROM c", "Count", "{\"item\": COUNT(1)}", "[{\"item\":6}]", "12"},
                {"SELECT VALUE SUM(c.n) FROM c", "Sum", "{\"item\": SUM(c.n), \"isPartial\": true}",
                        "[{\"item\":28,\"isPartial\":true}]", "51"},
                {"SELECT VALUE MIN(c.n) FROM c", "Min",
                        "{\"item\": MIN(c.n), \"item2\": {\"min\": MIN(c.n), \"count\": COUNT(c.n)}}",
                        "[{\"item\":2,\"item2\":{\"min\":2,\"count\":6}}]", "1"},
                {"SELECT VALUE MAX(c.cat) FROM c", "Max",
                        "{\"item\": MAX(c.cat), \"item2\": {\"max\": MAX(c.cat), \"count\": COUNT(c.cat)}}",
                        "[{\"item\":\"c\",\"item2\":{\"max\":\"c\",\"count\":6}}]", "\"c\""},
                {"SELECT VALUE AVG(c.n) FROM c", "Average", "{\"item\": {\"sum\": SUM(c.n), \"count\": COUNT(c.n)}}",
                        "[{\"item\":{\"sum\":28,\"count\":6}}]", "4.636363636363637"}};
        for (String[] c : cases) {
            assertInfo(c[0], "{aggregates:['" + c[1] + "'],hasSelectValue:true,rewrittenQuery:'SELECT VALUE ["
                    + c[2].replace("'", "\\'") + "]\\nFROM c'}");
            // the text returns Documents [[partial]]: one row, itself an array
            List<JsonNode> raw = Sql.parse(plan(c[0]).queryInfo().get("rewrittenQuery").asText())
                    .execute(docRanges().get(0), Map.of(), SdkPipeline.CTX);
            assertThat(raw).hasSize(1);
            assertThat(raw.get(0).toString()).as(c[0]).isEqualTo(c[3]);
            List<JsonNode> r = result(c[0]);
            assertThat(r).hasSize(1);
            assertThat(SdkPipeline.canonical(r.get(0))).as(c[0]).isEqualTo(SdkPipeline.canonical(json(c[4])));
        }
    }

    @Test
    void valueAggregatePartialsOverAnEmptyRange_2_11() {
        String[][] cases = {
                {"SELECT VALUE COUNT(1) FROM c", "[{\"item\":0}]"},
                {"SELECT VALUE MIN(c.n) FROM c", "[{\"item2\":{\"count\":0}}]"},
                // the doc shows {"count":0} alone; SUM over nothing is 0 here, and a zero count gives undefined alike
                {"SELECT VALUE AVG(c.n) FROM c", "[{\"item\":{\"sum\":0,\"count\":0}}]"},
                // the doc shows [[{}]] for SUM; SUM over nothing is 0 in this evaluator, which the SDK adds up alike
                {"SELECT VALUE SUM(c.n) FROM c", "[{\"item\":0,\"isPartial\":true}]"}};
        for (String[] c : cases) {
            List<JsonNode> raw = Sql.parse(plan(c[0]).queryInfo().get("rewrittenQuery").asText())
                    .execute(List.of(), Map.of(), SdkPipeline.CTX);
            assertThat(raw.toString()).as(c[0]).isEqualTo("[" + c[1] + "]");
        }
    }

    @Test
    void objectAggregates_2_12() {
        String q = "SELECT COUNT(1) AS cnt, SUM(c.n) AS total, MIN(c.n) AS lo, MAX(c.n) AS hi, AVG(c.n) AS mean FROM c";
        assertInfo(q, "{groupByAliases:['cnt','total','lo','hi','mean'],groupByAliasToAggregateType:{cnt:'Count',"
                + "total:'Sum',lo:'Min',hi:'Max',mean:'Average'},rewrittenQuery:'SELECT {\"cnt\": {\"item\": COUNT(1)}, "
                + "\"total\": {\"item\": SUM(c.n), \"isPartial\": true}, \"lo\": {\"item\": MIN(c.n), \"item2\": {\"min\": MIN(c.n), "
                + "\"count\": COUNT(c.n)}}, \"hi\": {\"item\": MAX(c.n), \"item2\": {\"max\": MAX(c.n), \"count\": "
                + "COUNT(c.n)}}, \"mean\": {\"item\": {\"sum\": SUM(c.n), \"count\": COUNT(c.n)}}} AS payload\\nFROM c'}");
        assertThat(rangeRows(q, 0).toString()).isEqualTo("[{\"payload\":{\"cnt\":{\"item\":6},\"total\":{\"item\":28,\"isPartial\":true},"
                + "\"lo\":{\"item\":2,\"item2\":{\"min\":2,\"count\":6}},\"hi\":{\"item\":8,\"item2\":{\"max\":8,"
                + "\"count\":6}},\"mean\":{\"item\":{\"sum\":28,\"count\":6}}}}]");
        assertThat(SdkPipeline.canonical(result(q))).isEqualTo(SdkPipeline.canonical(List.of(json(
                "{\"cnt\":12,\"total\":51.0,\"lo\":1,\"hi\":9,\"mean\":4.636363636363637}"))));
        // unaliased aggregates are $1, $2, ...
        assertInfo("SELECT COUNT(1) FROM c", "{groupByAliases:['$1'],groupByAliasToAggregateType:{'$1':'Count'},"
                + "rewrittenQuery:'SELECT {\"$1\": {\"item\": COUNT(1)}} AS payload\\nFROM c'}");
        assertThat(result("SELECT COUNT(1) FROM c").toString()).isEqualTo("[{\"$1\":12}]");
    }

    // ------------------------------------------------------------------ §2.13 GROUP BY

    @Test
    void groupByWithAggregates_2_13a() {
        String q = "SELECT c.cat, COUNT(1) AS cnt, SUM(c.n) AS total, MIN(c.n) AS lo, MAX(c.n) AS hi, AVG(c.n) AS mean "
                + "FROM c GROUP BY c.cat";
        ObjectNode info = plan(q).queryInfo();
        assertThat(info.get("groupByAliasToAggregateType").toString()).isEqualTo("{\"cat\":null,\"cnt\":\"Count\","
                + "\"total\":\"Sum\",\"lo\":\"Min\",\"hi\":\"Max\",\"mean\":\"Average\"}");
        JsonNode a = rangeRows(q, 0).get(0);
        assertThat(a.toString()).isEqualTo("{\"groupByItems\":[{\"item\":\"a\"}],\"payload\":{\"cat\":\"a\","
                + "\"cnt\":{\"item\":3},\"total\":{\"item\":10,\"isPartial\":true},\"lo\":{\"item\":2,\"item2\":{\"min\":2,\"count\":3}},"
                + "\"hi\":{\"item\":5,\"item2\":{\"max\":5,\"count\":3}},\"mean\":{\"item\":{\"sum\":10,\"count\":3}}}}");
        assertThat(SdkPipeline.canonical(result(q).get(0))).isEqualTo(SdkPipeline.canonical(json(
                "{\"cat\":\"a\",\"cnt\":5,\"total\":15.0,\"lo\":2,\"hi\":5,\"mean\":3.75}")));
    }

    @Test
    void groupByAliasesAndValueForms_2_13bcdef() {
        assertInfo("SELECT c.cat AS category, COUNT(1) AS n FROM c GROUP BY c.cat", "{groupByExpressions:['c.cat'],"
                + "groupByAliases:['category','n'],groupByAliasToAggregateType:{category:null,n:'Count'},rewrittenQuery:"
                + "'SELECT [{\"item\": c.cat}] AS groupByItems, {\"category\": c.cat, \"n\": {\"item\": COUNT(1)}} AS "
                + "payload\\nFROM c\\nGROUP BY c.cat'}");
        String valueCount = "SELECT VALUE COUNT(1) FROM c GROUP BY c.cat";
        assertInfo(valueCount, "{groupByExpressions:['c.cat'],aggregates:['Count'],hasSelectValue:true,rewrittenQuery:"
                + "'SELECT [{\"item\": c.cat}] AS groupByItems, [{\"item\": COUNT(1)}] AS payload\\nFROM c\\n"
                + "GROUP BY c.cat'}");
        assertThat(rangeRows(valueCount, 0).get(0).toString())
                .isEqualTo("{\"groupByItems\":[{\"item\":\"a\"}],\"payload\":[{\"item\":3}]}");
        assertThat(SdkPipeline.multiset(result(valueCount))).isEqualTo(SdkPipeline.multiset(List.of(json("5"),
                json("3"), json("4"))));
        assertThat(SdkPipeline.multiset(result("SELECT VALUE AVG(c.n) FROM c GROUP BY c.cat")))
                .isEqualTo(SdkPipeline.multiset(List.of(json("3.75"), json("3.6666666666666665"), json("6.25"))));
        String valueKey = "SELECT VALUE c.cat FROM c GROUP BY c.cat";
        assertInfo(valueKey, "{groupByExpressions:['c.cat'],hasSelectValue:true,rewrittenQuery:'SELECT [{\"item\": "
                + "c.cat}] AS groupByItems, c.cat AS payload\\nFROM c\\nWHERE IS_DEFINED(c.cat)\\nGROUP BY c.cat'}");
        assertThat(rangeRows(valueKey, 0).get(0).toString())
                .isEqualTo("{\"groupByItems\":[{\"item\":\"a\"}],\"payload\":\"a\"}");
        assertThat(SdkPipeline.multiset(result(valueKey))).isEqualTo(SdkPipeline.multiset(List.of(json("'a'"),
                json("'c'"), json("'b'"))));
        String twoKeys = "SELECT c.cat, c.m FROM c GROUP BY c.cat, c.m";
        assertThat(plan(twoKeys).queryInfo().get("groupByAliasToAggregateType").toString())
                .isEqualTo("{\"cat\":null,\"m\":null}");
        assertThat(rangeRows(twoKeys, 0).get(1).toString())
                .isEqualTo("{\"groupByItems\":[{\"item\":\"b\"},{\"item\":2}],\"payload\":{\"cat\":\"b\",\"m\":2}}");
        String top = "SELECT TOP 2 VALUE c.cat FROM c GROUP BY c.cat";
        assertInfo(top, "{top:2,groupByExpressions:['c.cat'],hasSelectValue:true,rewrittenQuery:'SELECT [{\"item\": "
                + "c.cat}] AS groupByItems, c.cat AS payload\\nFROM c\\nWHERE IS_DEFINED(c.cat)\\nGROUP BY c.cat'}");
        assertThat(result(top)).hasSize(2);
    }

    @Test
    void groupByUndefinedKeyOmitsTheProperty_2_13() {
        List<List<JsonNode>> ranges = List.of(List.of(json("{id:'x',pk:'x'}")), List.of(), List.of());
        String q = "SELECT c.n, COUNT(1) AS cnt FROM c GROUP BY c.n";
        List<JsonNode> rows = SdkPipeline.perRange(q, Map.of(), plan(q).queryInfo(), ranges,
                List.of("true", "true", "true")).get(0);
        assertThat(rows.toString()).isEqualTo("[{\"groupByItems\":[{}],\"payload\":{\"cnt\":{\"item\":1}}}]");
        // SELECT VALUE of an undefined key: the row would have no payload, which the SDK cannot merge (D8)
        String value = "SELECT VALUE c.n FROM c GROUP BY c.n";
        assertThat(SdkPipeline.perRange(value, Map.of(), plan(value).queryInfo(), ranges,
                List.of("true", "true", "true")).get(0)).isEmpty();
    }

    // ------------------------------------------------------------------ §2.14 DCOUNT

    @Test
    void dcount_2_14() {
        String q = "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c)";
        assertInfo(q, "{distinctType:'Unordered',hasSelectValue:true,dCountInfo:{dCountAlias:''},rewrittenQuery:"
                + "'SELECT DISTINCT VALUE c.cat\\nFROM c'}");
        assertThat(text(rangeRows(q, 0))).isEqualTo("[\"a\",\"b\",\"c\"]");
        assertThat(result(q).toString()).isEqualTo("[3]");
        String aliased = "SELECT COUNT(1) AS dc FROM (SELECT DISTINCT VALUE c.cat FROM c)";
        assertThat(plan(aliased).queryInfo().get("dCountInfo").toString()).isEqualTo("{\"dCountAlias\":\"dc\"}");
        assertThat(result(aliased).toString()).isEqualTo("[{\"dc\":3}]");
    }

    // ------------------------------------------------------------------ real-planner baselines (.NET SDK files)

    @Test
    void baselineFormats() {
        assertThat(rewrite("SELECT * FROM Root r ORDER BY r.blah")).isEqualTo("SELECT r._rid, [{\"item\": r.blah}] "
                + "AS orderByItems, r AS payload\nFROM Root AS r\nWHERE ({documentdb-formattableorderbyquery-filter})\n"
                + "ORDER BY r.blah");
        assertThat(rewrite("SELECT TOP 50 r[0] FROM r ORDER BY r.key ASC")).isEqualTo("SELECT TOP 50 r._rid, "
                + "[{\"item\": r.key}] AS orderByItems, {\"$1\": r[0]} AS payload\nFROM r\nWHERE "
                + "({documentdb-formattableorderbyquery-filter})\nORDER BY r.key ASC");
        assertThat(rewrite("SELECT TOP 70 r[\"a\"] FROM Root r ORDER BY r.key DESC")).isEqualTo("SELECT TOP 70 "
                + "r._rid, [{\"item\": r.key}] AS orderByItems, {\"a\": r[\"a\"]} AS payload\nFROM Root AS r\nWHERE "
                + "({documentdb-formattableorderbyquery-filter})\nORDER BY r.key DESC");
        assertThat(rewrite("SELECT VALUE r.a FROM r WHERE r.d = true ORDER BY r.b")).isEqualTo("SELECT r._rid, "
                + "[{\"item\": r.b}] AS orderByItems, r.a AS payload\nFROM r\nWHERE (((r.d = true) AND "
                + "({documentdb-formattableorderbyquery-filter})) AND IS_DEFINED(r.a))\nORDER BY r.b");
        assertThat(rewrite("SELECT 1 FROM r ORDER BY r._ts")).isEqualTo("SELECT r._rid, [{\"item\": r._ts}] AS "
                + "orderByItems, {\"$1\": 1} AS payload\nFROM r\nWHERE ({documentdb-formattableorderbyquery-filter})\n"
                + "ORDER BY r._ts");
        assertThat(rewrite("SELECT VALUE MIN(c.blah + 1) FROM c")).isEqualTo("SELECT VALUE [{\"item\": MIN((c.blah + "
                + "1)), \"item2\": {\"min\": MIN((c.blah + 1)), \"count\": COUNT((c.blah + 1))}}]\nFROM c");
        assertThat(rewrite("SELECT VALUE AVG(c.age + 1) FROM Root r JOIN c in r.children WHERE c.age > 1 ORDER BY "
                + "c.name")).isEqualTo("SELECT VALUE [{\"item\": {\"sum\": SUM((c.age + 1)), \"count\": COUNT((c.age "
                + "+ 1))}}]\nFROM Root AS r\nJOIN c IN r.children\nWHERE (c.age > 1)\nORDER BY c.name");
        assertThat(plan("SELECT VALUE AVG(c.age + 1) FROM Root r JOIN c in r.children ORDER BY c.name").queryInfo()
                .get("orderBy").isEmpty()).isTrue();
        assertThat(rewrite("SELECT * FROM c WHERE c.blah = 5 OFFSET 1 LIMIT 2"))
                .isEqualTo("SELECT *\nFROM c\nWHERE (c.blah = 5)\nOFFSET 0 LIMIT 3");
        assertThat(rewrite("SELECT SUM(c.blah) as sum_blah, SUM(c.blah) FROM c")).isEqualTo("SELECT {\"sum_blah\": "
                + "{\"item\": SUM(c.blah), \"isPartial\": true}, \"$1\": {\"item\": SUM(c.blah), \"isPartial\": "
                + "true}} AS payload\nFROM c");
        assertThat(rewrite("SELECT COUNT(r) From r")).isEqualTo("SELECT {\"$1\": {\"item\": COUNT(r)}} AS payload\n"
                + "FROM r");
        assertThat(plan("SELECT TOP 5 VALUE AVG(c.name) FROM c").queryInfo().get("top").asLong()).isEqualTo(5);
        assertThat(rewrite("SELECT TOP 5 VALUE AVG(c.name) FROM c"))
                .isEqualTo("SELECT VALUE [{\"item\": {\"sum\": SUM(c.name), \"count\": COUNT(c.name)}}]\nFROM c");
        assertThat(rewrite("SELECT TOP 5 VALUE c.name FROM c GROUP BY c.name")).isEqualTo("SELECT [{\"item\": c.name}] "
                + "AS groupByItems, c.name AS payload\nFROM c\nWHERE IS_DEFINED(c.name)\nGROUP BY c.name");
        assertInfo("SELECT TOP @TOPCOUNT * FROM c", Map.of("@TOPCOUNT", IntNode.valueOf(42)), "{top:42}");
        assertInfo("SELECT TOP 0 * FROM c", "{top:0}");
        assertInfo("SELECT * FROM c OFFSET 0 LIMIT 0", "{offset:0,limit:0,rewrittenQuery:'SELECT *\\nFROM c\\n"
                + "OFFSET 0 LIMIT 0'}");
        assertThat(rewrite("SELECT c.name FROM c OFFSET 2147483647 LIMIT 10"))
                .isEqualTo("SELECT c.name\nFROM c\nOFFSET 0 LIMIT 2147483657");
    }

    @Test
    void onePartitionKeyLeavesOrderByAndOffsetLimitToTheRange() {
        // REAL-PLAN (PointRange / OrderBy / OffsetLimit / Top baselines): the range holding the partition runs the
        // query as written; TOP, aggregates, DISTINCT and GROUP BY keep their pipeline
        assertInfo("SELECT * FROM Root r WHERE r.pk = 'key' ORDER BY r.pk", "{}");
        assertInfo("SELECT * FROM c WHERE c.pk = 5 OFFSET 1 LIMIT 2", "{}");
        assertInfo("SELECT TOP 5 * FROM c WHERE c.pk = 5", "{top:5}");
        assertInfo("SELECT VALUE COUNT(1) FROM c WHERE c.pk = 5 OFFSET 1 LIMIT 2", "{offset:1,limit:2,aggregates:"
                + "['Count'],hasSelectValue:true,rewrittenQuery:'SELECT VALUE [{\"item\": COUNT(1)}]\\nFROM c\\nWHERE "
                + "(c.pk = 5)'}");
        assertInfo("SELECT DISTINCT * FROM c WHERE c.pk = 5 OFFSET 1 LIMIT 2", "{distinctType:'Unordered',offset:1,"
                + "limit:2,rewrittenQuery:'SELECT DISTINCT *\\nFROM c\\nWHERE (c.pk = 5)'}");
        assertInfo("SELECT c.name FROM c WHERE c.pk = 5 GROUP BY c.name OFFSET 1 LIMIT 2", "{offset:1,limit:2,"
                + "groupByExpressions:['c.name'],groupByAliases:['name'],groupByAliasToAggregateType:{name:null},"
                + "rewrittenQuery:'SELECT [{\"item\": c.name}] AS groupByItems, {\"name\": c.name} AS payload\\nFROM c"
                + "\\nWHERE (c.pk = 5)\\nGROUP BY c.name'}");
        // several points keep the ORDER BY plan
        assertThat(rewrite("SELECT * FROM Root r WHERE r.pk IN (1, 2, 3, 4, 5, 6, 7, 8, 9) ORDER BY r.pk"))
                .isEqualTo("SELECT r._rid, [{\"item\": r.pk}] AS orderByItems, r AS payload\nFROM Root AS r\nWHERE "
                        + "((r.pk IN (1, 2, 3, 4, 5, 6, 7, 8, 9)) AND ({documentdb-formattableorderbyquery-filter}))\n"
                        + "ORDER BY r.pk");
    }

    @Test
    void queriesWithoutFromGoToOneRange() {
        QueryPlan p = plan("SELECT VALUE ABS(-1)");
        assertThat(p.partitionKeyPoints()).isPresent();
        assertThat(p.partitionKeyPoints().get()).hasSize(1);
        assertThat(SdkPipeline.run("SELECT VALUE ABS(-1)", Map.of(), p.queryInfo(),
                List.of(List.of()), false).toString()).isEqualTo("[1]");
    }

    private static String text(List<JsonNode> rows) {
        return PlanTestData.LENIENT.createArrayNode().addAll(rows).toString();
    }

    private static String rewrite(String query) {
        return plan(query).queryInfo().get("rewrittenQuery").asText();
    }
}
