package dev.partita.sql.plan;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The 12-document, 3-range dataset of query-plans.md §0, and helpers shared by the plan tests. */
final class PlanTestData {
    static final ObjectMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .build();
    static final List<String> PK = List.of("/pk");

    private PlanTestData() {
    }

    static JsonNode json(String text) {
        try {
            return LENIENT.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /**
     * A document rid as Partita's engine writes it: database 4 bytes, container 4 bytes (top bit set), then the
     * document sequence little-endian in bytes 8..14 and a type byte 0; the SDKs read bytes 8..15 little-endian.
     */
    static String rid(long sequence) {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putInt(0x5DB43500).putInt(0xFF40DC75);
        b.order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(sequence);
        return Base64.getEncoder().encodeToString(b.array()).replace('/', '-');
    }

    /** §0: range of each document (by the V2 EPK of its pk), in rid order within each range. */
    static List<List<JsonNode>> docRanges() {
        String[][] rows = {
                {"d0", "0", "a", "5", "1"}, {"d1", "0", "b", "3", "2"}, {"d2", "2", "a", "5", "0"},
                {"d3", "1", "c", "1", "5"}, {"d4", "0", "b", "8", "1"}, {"d5", "2", "c", "3", "3"},
                {"d6", "0", "a", "2", "9"}, {"d7", "1", "b", "5", "2"}, {"d8", "0", "c", "7", "4"},
                {"d9", "0", "a", "3", "1"}, {"d10", "1", "b", "9", "7"}, {"d11", "2", "a", null, "6"}};
        List<List<JsonNode>> ranges = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < rows.length; i++) {
            String[] r = rows[i];
            ObjectNode d = LENIENT.createObjectNode();
            d.put("id", r[0]).put("pk", "p" + r[0].substring(1)).put("cat", r[2]);
            if (r[3] != null) {
                d.put("n", Integer.parseInt(r[3]));
            }
            d.put("m", Integer.parseInt(r[4])).put("_rid", rid(i + 1));
            ranges.get(Integer.parseInt(r[1])).add(d);
        }
        return ranges;
    }

    static List<JsonNode> all(List<List<JsonNode>> ranges) {
        List<JsonNode> out = new ArrayList<>();
        ranges.forEach(out::addAll);
        return out;
    }

    static QueryPlan plan(String query) {
        return plan(query, Map.of());
    }

    static QueryPlan plan(String query, Map<String, JsonNode> params) {
        return QueryPlanner.plan(Sql.parse(query), PK, params);
    }

    /** The SDK's result for this query over these ranges, without the SDK's undefined-aggregate quirks. */
    static List<JsonNode> simulate(String query, Map<String, JsonNode> params, List<List<JsonNode>> ranges) {
        QueryPlan plan = QueryPlanner.plan(Sql.parse(query), PK, params);
        return SdkPipeline.run(query, params, plan.queryInfo(), ranges, false);
    }

    /** ids of the rows (objects with "id", or bare values). */
    static List<String> ids(List<JsonNode> rows) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : rows) {
            out.add(r.isObject() && r.has("id") ? r.get("id").asText() : r.asText());
        }
        return out;
    }
}
