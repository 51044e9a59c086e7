package dev.partita.sql;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Helpers for the unit tests: lenient JSON literals (single quotes, bare keys) and one-call execution. */
final class QueryTestSupport {
    static final ObjectMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .build();
    static final Instant NOW = Instant.parse("2024-05-06T07:08:09.1234567Z");
    static final EvalContext CTX = EvalContext.of(Clock.fixed(NOW, ZoneOffset.UTC));

    private QueryTestSupport() {
    }

    static JsonNode json(String text) {
        try {
            return LENIENT.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static List<JsonNode> docs(String jsonArray) {
        List<JsonNode> out = new ArrayList<>();
        json(jsonArray).forEach(out::add);
        return out;
    }

    /** Runs the query and returns the rows as one compact JSON array text (numbers as Jackson prints them). */
    static String run(String query, String docsArray, Map<String, JsonNode> params) {
        List<JsonNode> rows = Sql.parse(query).execute(docs(docsArray), params, CTX);
        return QueryTestSupport.LENIENT.createArrayNode().addAll(rows).toString();
    }

    static String run(String query, String docsArray) {
        return run(query, docsArray, Map.of());
    }

    static String run(String query) {
        return run(query, "[]", Map.of());
    }

    static JsonNode[] nodes(List<JsonNode> l) {
        return l.toArray(new JsonNode[0]);
    }

}
