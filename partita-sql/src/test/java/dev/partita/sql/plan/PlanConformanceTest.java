package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.sql.ConformanceCases;
import dev.partita.sql.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The conformance cases that read documents (conformance/query-cases.jsonl in the test resources), run as the SDK would run them
 * against a container of 3 ranges: plan, each range runs the plan's text over its third of the documents (in
 * order: the first third, the second, the rest), the ranges are merged by {@link SdkPipeline}, and the result is
 * compared with the case's expected rows. Cases in {@link #KNOWN_DIFFERENCES} must fail (so the list stays true);
 * all others must pass.
 */
class PlanConformanceTest {
    private static final Path CASES = ConformanceCases.FILE;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Case id → why the 3-range result differs from the expected rows. */
    static final Map<String, String> KNOWN_DIFFERENCES = Map.ofEntries(
            Map.entry("samples-st-distance", "spatial functions are not implemented (as in ConformanceTest)")
    );

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String line : Files.readAllLines(CASES)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode c = MAPPER.readTree(line);
            if (!c.get("docs").isEmpty()) {
                out.add(Arguments.of(c.get("id").asText(), c));
            }
        }
        return out.stream();
    }

    @Test
    void theCasesWithDocumentsAreAllHere() throws IOException {
        assertThat(cases().count()).isEqualTo(61);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void conformanceOverThreeRanges(String id, JsonNode c) {
        String failure = run(c);
        String known = KNOWN_DIFFERENCES.get(id);
        if (known == null) {
            if (failure != null) {
                fail(id + ": " + failure);
            }
        } else if (failure == null) {
            fail(id + " is listed as a known difference (" + known + ") but now passes: remove it");
        }
    }

    static String run(JsonNode c) {
        List<JsonNode> docs = new ArrayList<>();
        c.get("docs").forEach(docs::add);
        int third = (docs.size() + 2) / 3;
        List<List<JsonNode>> ranges = List.of(
                docs.subList(0, Math.min(third, docs.size())),
                docs.subList(Math.min(third, docs.size()), Math.min(2 * third, docs.size())),
                docs.subList(Math.min(2 * third, docs.size()), docs.size()));
        Map<String, JsonNode> params = new HashMap<>();
        c.get("params").properties().forEach(e -> params.put(e.getKey(), e.getValue()));
        String query = c.get("query").asText();
        List<JsonNode> actual;
        try {
            QueryPlan plan = QueryPlanner.plan(Sql.parse(query), List.of("/id"), params);
            actual = SdkPipeline.run(query, params, plan.queryInfo(), ranges, false);
        } catch (RuntimeException e) {
            return "threw " + e;
        }
        List<JsonNode> expected = new ArrayList<>();
        c.get("expected").forEach(expected::add);
        boolean same = c.path("ordered").asBoolean(false)
                ? SdkPipeline.canonical(actual).equals(SdkPipeline.canonical(expected))
                : SdkPipeline.multiset(actual).equals(SdkPipeline.multiset(expected));
        return same ? null : "expected " + expected + " but got " + actual;
    }
}
