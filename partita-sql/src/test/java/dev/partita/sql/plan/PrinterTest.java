package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.sql.ConformanceCases;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Query;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Printed text parses back to an equivalent query: same tree, same rows. */
class PrinterTest {
    private static final Path CASES = ConformanceCases.FILE;

    private static final List<String> QUERIES = List.of(
            "SELECT * FROM c",
            "SELECT DISTINCT TOP 5 VALUE c.cat FROM c",
            "SELECT c.id, c[\"value\"], c.a.b[0], c[\"x y\"] AS xy FROM root c",
            "SELECT VALUE {\"a\": c.a, b: [1, -2, 3.5, 1E21, \"s\\\"q\", 'single', true, null, undefined]} FROM c",
            "SELECT * FROM c WHERE c.n > 1 AND NOT (c.m = 2) OR c.x IN (1, 2) AND c.s LIKE 'a%' ESCAPE '!'",
            "SELECT * FROM c WHERE c.n BETWEEN 1 AND 3 AND c.n NOT BETWEEN -(5) AND -5",
            "SELECT VALUE c.a ?? (c.b ? c.c : c.d) FROM c",
            "SELECT VALUE -c.n * (c.m + 1) / 2 % 3 - ~c.k FROM c",
            "SELECT VALUE c.a || c.b FROM c WHERE c.x & 1 = 1 AND c.y | 2 > 0 AND c.z ^ 3 < 4 AND c.w << 1 >= 2",
            "SELECT c.id, t FROM c JOIN t IN c.tags WHERE t != 'x' ORDER BY c.id DESC, t ASC",
            "SELECT * FROM c.children ch",
            "SELECT * FROM c.children AS kids",
            "SELECT VALUE x FROM x IN c.arr",
            "SELECT s FROM (SELECT VALUE c.n FROM c) AS s",
            "SELECT VALUE ARRAY(SELECT VALUE t FROM t IN c.tags WHERE t > 'b') FROM c",
            "SELECT VALUE EXISTS(SELECT VALUE t FROM t IN c.tags) FROM c",
            "SELECT VALUE (SELECT VALUE COUNT(1) FROM t IN c.tags) FROM c",
            "SELECT c.cat, COUNT(1) AS n, AVG(c.n) FROM c WHERE c.m > @min GROUP BY c.cat",
            "SELECT * FROM c ORDER BY c.n OFFSET @o LIMIT 10",
            "SELECT VALUE [NaN, Infinity, -Infinity, 0x1F, -0.0] FROM c",
            "SELECT VALUE c.True FROM c",
            "SELECT VALUE c[\"order\"] FROM c",
            "SELECT VALUE c.arr[1 + 1] FROM c",
            "SELECT VALUE c[\"é\\n\\u0001\"] FROM c",
            "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c)");

    @Test
    void printedQueriesParseBackToTheSameTree() throws Exception {
        List<String> all = new ArrayList<>(QUERIES);
        ObjectMapper mapper = new ObjectMapper();
        for (String line : Files.readAllLines(CASES)) {
            if (!line.isBlank()) {
                all.add(mapper.readTree(line).get("query").asText());
            }
        }
        int checked = 0;
        for (String text : all) {
            Query ast;
            try {
                ast = Sql.parse(text).ast();
            } catch (SqlException e) {
                continue; // cases that expect an error
            }
            String printed = Printer.query(ast);
            Query again = Sql.parse(printed).ast();
            assertThat(Printer.query(again)).as(text).isEqualTo(printed);
            assertThat(again).as(printed).isEqualTo(ast);
            checked++;
        }
        assertThat(checked).isGreaterThan(150);
    }

    @Test
    void printedQueriesReturnTheSameRows() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        int checked = 0;
        for (String line : Files.readAllLines(CASES)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode c = mapper.readTree(line);
            List<JsonNode> docs = new ArrayList<>();
            c.get("docs").forEach(docs::add);
            Map<String, JsonNode> params = new HashMap<>();
            c.get("params").properties().forEach(e -> params.put(e.getKey(), e.getValue()));
            List<JsonNode> expected;
            try {
                expected = Sql.parse(c.get("query").asText()).execute(docs, params, SdkPipeline.CTX);
            } catch (SqlException e) {
                continue;
            }
            String printed = Printer.query(Sql.parse(c.get("query").asText()).ast());
            List<JsonNode> actual = Sql.parse(printed).execute(docs, params, SdkPipeline.CTX);
            assertThat(SdkPipeline.canonical(actual)).as(printed).isEqualTo(SdkPipeline.canonical(expected));
            checked++;
        }
        assertThat(checked).isGreaterThan(150);
    }

    @Test
    void formatFollowsTheRealPlanner() {
        assertThat(Printer.query(Sql.parse("SELECT * FROM Root r WHERE r.a = 'x' AND r.b IN (1, 2)").ast()))
                .isEqualTo("SELECT *\nFROM Root AS r\nWHERE ((r.a = \"x\") AND (r.b IN (1, 2)))");
        assertThat(Printer.query(Sql.parse("SELECT VALUE r FROM Root r JOIN c IN r.children").ast()))
                .isEqualTo("SELECT VALUE r\nFROM Root AS r\nJOIN c IN r.children");
    }
}
