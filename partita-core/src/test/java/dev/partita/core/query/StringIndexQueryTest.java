package dev.partita.core.query;

import static dev.partita.core.query.IndexedQueryTest.drain;
import static dev.partita.core.query.IndexedQueryTest.engine;
import static dev.partita.core.query.IndexedQueryTest.whole;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.capacity.Work;
import dev.partita.core.json.Json;
import dev.partita.core.request.RequestOptions;
import dev.partita.sql.value.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * String functions on an indexed path (CONTAINS, STARTSWITH, ENDSWITH, RegexMatch, LIKE) answered from the path's
 * index terms return exactly the rows of a full evaluation, for random items (case variants, Unicode, strings longer
 * than an index term keeps, arrays, missing and non-string values), random page sizes and shapes, under the default
 * policy and one that excludes some paths; and they load only the items whose string matches.
 */
class StringIndexQueryTest {
    /** Indexes /s and /x/y only: CONTAINS on /e is a scan. */
    static final String RESTRICTIVE = """
            {"includedPaths":[{"path":"/s/?"},{"path":"/x/y/?"},{"path":"/n/?"}],"excludedPaths":[{"path":"/*"}]}""";
    static final String LONG = "x".repeat(99);

    static final String[] STRINGS = {"", "a", "ab", "Ab", "AB", "abc", "bab", "straße", "STRASSE", "İstanbul",
        "istanbul", "ǅx", "σς", "ΣΣ", "é", "É", "e\u0301", "\u0000x", "\uffff", "😀", "x😀y", LONG + "ab", LONG + "AB",
        "ab" + LONG, LONG + "xab", LONG + "x😀", "50% off", "a_b", "[ab]"};
    static final String[] NEEDLES = {"", "a", "b", "ab", "AB", "ss", "SS", "ß", "i", "İ", "é", "É", "😀", "x", "\u0000",
        "σ", "Σ", "xab", "%", "_"};
    static final String[] PATTERNS = {"^a", "b$", "a.b", "é", "(?i)straSSe", "^$", "x{99}", "😀", "[Σσ]"};
    static final String[] LIKES = {"a%", "%b", "%ab%", "_b", "a_b", "50!%%", "[ab]%", "%😀", "x%ab", "", "%", "Ab"};

    static final List<String> SHAPES = List.of(
            "SELECT * FROM c WHERE %s",
            "SELECT VALUE c.id FROM c WHERE %s",
            "SELECT TOP 3 VALUE c.id FROM c WHERE %s",
            "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE %s",
            "SELECT VALUE COUNT(1) FROM c WHERE %s",
            "SELECT c.id, c.n FROM c WHERE %s ORDER BY c.n",
            "SELECT c.id, c.s FROM c WHERE %s ORDER BY c.s DESC",
            "SELECT DISTINCT VALUE c.s FROM c WHERE %s",
            "SELECT VALUE c.id FROM c WHERE %s OFFSET 2 LIMIT 5");

    static ObjectNode doc(Random r, String id, String pk) {
        ObjectNode d = Json.object().put("id", id).put("pk", pk).put("n", r.nextInt(4));
        switch (r.nextInt(8)) {
            case 0 -> { } // missing
            case 1 -> d.put("s", r.nextInt(5));
            case 2 -> d.putArray("s").add(pick(r, STRINGS));
            case 3 -> d.putNull("s");
            default -> d.put("s", pick(r, STRINGS));
        }
        if (r.nextBoolean()) {
            d.putObject("x").put("y", pick(r, STRINGS));
        } else if (r.nextBoolean()) {
            d.putArray("x").addObject().put("y", pick(r, STRINGS));
        }
        d.put("e", pick(r, STRINGS));
        ArrayNode tags = d.putArray("tags");
        for (int i = r.nextInt(3); i > 0; i--) {
            tags.add(pick(r, STRINGS));
        }
        d.put("flag", r.nextBoolean());
        return d;
    }

    static String pick(Random r, String[] pool) {
        return pool[r.nextInt(pool.length)];
    }

    /** A string-function conjunct, sometimes with another conjunct (which an index may answer instead). */
    static String filter(Random r, Map<String, JsonNode> params) {
        String path = pick(r, new String[] {"c.s", "c.s", "c.s", "c.x.y", "c.e", "c.tags"});
        String ic = switch (r.nextInt(3)) {
            case 0 -> "";
            case 1 -> ", true";
            default -> ", " + lit(r, params, Json.NODES.booleanNode(r.nextBoolean()));
        };
        String f = switch (r.nextInt(6)) {
            case 0 -> "CONTAINS(" + path + ", " + lit(r, params, text(pick(r, NEEDLES))) + ic + ")";
            case 1 -> "STARTSWITH(" + path + ", " + lit(r, params, text(pick(r, NEEDLES))) + ", true)";
            case 2 -> "ENDSWITH(" + path + ", " + lit(r, params, text(pick(r, NEEDLES))) + ic + ")";
            case 3 -> "RegexMatch(" + path + ", " + lit(r, params, text(pick(r, PATTERNS)))
                    + (r.nextBoolean() ? ", 'i'" : "") + ")";
            case 4 -> path + " LIKE " + lit(r, params, text(pick(r, LIKES))) + " ESCAPE '!'";
            default -> path + " LIKE " + lit(r, params, text(pick(r, LIKES)));
        };
        return switch (r.nextInt(6)) {
            case 0 -> f + " AND c.flag = true";
            case 4 -> "c.pk = 'p" + r.nextInt(20) + "' AND " + f;
            case 1 -> "c.n = " + r.nextInt(4) + " AND " + f;
            case 2 -> f + " AND c.n > 0";
            default -> f;
        };
    }

    static JsonNode text(String s) {
        return Json.NODES.textNode(s);
    }

    static String lit(Random r, Map<String, JsonNode> params, JsonNode v) {
        if (r.nextBoolean() || v.isTextual() && v.textValue().chars().anyMatch(ch -> ch < 0x20 || ch > 0x7e)) {
            String name = "@p" + params.size();
            params.put(name, v);
            return name;
        }
        return Values.toJsonText(v);
    }

    static void load(Engine engine, Random r, int count) {
        ContainerHandle items = engine.container("db", "c");
        for (int i = 0; i < count; i++) {
            items.create(Json.bytes(doc(r, "i" + i, "p" + r.nextInt(20))), RequestOptions.NONE);
        }
    }

    static void checkAgainstFullEvaluation(Engine engine, Random r, int ranges) {
        load(engine, r, 80);
        for (int q = 0; q < 8; q++) {
            Map<String, JsonNode> params = new HashMap<>();
            String query = SHAPES.get(r.nextInt(SHAPES.size())).formatted(filter(r, params));
            List<JsonNode> expected = whole(engine, query, params);
            for (int size : new int[] {1, 3, 1000}) {
                List<JsonNode> got = drain(engine, query, params, size, null);
                String as = query + " / " + size + " " + params;
                if (query.contains("OFFSET") || query.contains("TOP")) {
                    // which rows a page of an unordered query skips is up to the engine: check the count and origin
                    String unpagedText = query.replace(" OFFSET 2 LIMIT 5", "").replace("TOP 3 ", "");
                    List<JsonNode> unpaged = whole(engine, unpagedText, params);
                    assertThat(unpaged).as(as).containsAll(got);
                    if (ranges == 1) {
                        assertThat(got).as(as).hasSize(query.contains("TOP") ? Math.min(3, unpaged.size())
                                : Math.min(5, Math.max(0, unpaged.size() - 2)));
                    }
                } else if (query.startsWith("SELECT VALUE COUNT")) {
                    assertThat(got.stream().mapToLong(JsonNode::asLong).sum()).as(as)
                            .isEqualTo(expected.get(0).asLong());
                } else if (query.contains("ORDER BY") && ranges == 1) {
                    assertThat(got).as(as).containsExactlyElementsOf(expected);
                } else if (query.contains("DISTINCT")) {
                    assertThat(new TreeSet<>(got.stream().map(JsonNode::toString).toList())).as(as)
                            .isEqualTo(new TreeSet<>(expected.stream().map(JsonNode::toString).toList()));
                } else {
                    assertThat(got).as(as).containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        }
    }

    @Property(tries = 40)
    void stringFunctionsThroughTheIndexReturnTheRowsOfAFullEvaluation(@ForAll long seed) {
        Random r = new Random(seed);
        int ranges = r.nextBoolean() ? 1 : 5;
        try (Engine engine = engine(ranges, r.nextBoolean() ? null : RESTRICTIVE)) {
            checkAgainstFullEvaluation(engine, r, ranges);
        }
    }

    @Test
    void rocksStoreAnswersStringFunctionsLikeAFullEvaluation(@TempDir Path dir) {
        IndexedQueryTest.onRocksStores(dir, RESTRICTIVE, StringIndexQueryTest::checkAgainstFullEvaluation);
    }

    /** 600 items of which 6 match: the index walk loads those, a scan of an excluded path loads all. */
    @Test
    void anIndexedStringFunctionLoadsOnlyTheItemsWhoseStringMatches() {
        for (int ranges : new int[] {1, 3}) {
            try (Engine engine = engine(ranges, RESTRICTIVE)) {
                loadModels(engine);
                for (String f : List.of("CONTAINS(%s, 'rOLL', true)", "STARTSWITH(%s, 'coro', true)",
                        "ENDSWITH(%s, 'a 507')", "RegexMatch(%s, '^Cor')", "%s LIKE '%%olla%%'")) {
                    Work[] indexed = {null};
                    List<JsonNode> rows = drain(engine, "SELECT * FROM c WHERE " + f.formatted("c.s"), Map.of(), 2,
                            indexed);
                    Work[] scanned = {null};
                    drain(engine, "SELECT * FROM c WHERE " + f.formatted("c.e"), Map.of(), 2, scanned);
                    int matching = f.contains("507") ? 1 : 6;
                    assertThat(rows).as(f).hasSize(matching);
                    assertThat(scanned[0].itemsLoaded()).as(f).isGreaterThanOrEqualTo(600);
                    // resuming pages reload the item they stopped in
                    assertThat(indexed[0].itemsLoaded()).as(f).isBetween((long) matching, 2L * matching + ranges);
                    // the distinct strings (46 at most, per range read) plus the matching entries
                    assertThat(indexed[0].indexEntriesRead()).as(f).isLessThan(46L * 4 * ranges + 2 * matching);
                    assertThat(indexed[0].functionCalls()).as(f).isLessThanOrEqualTo(indexed[0].itemsLoaded());
                }
            }
        }
    }

    /** Six Corollas (i7, i107, ... i507) among 600 items, in 17 logical partitions; {@code e} is a copy of {@code s}. */
    static void loadModels(Engine engine) {
        ContainerHandle items = engine.container("db", "c");
        for (int i = 0; i < 600; i++) {
            String model = i % 100 == 7 ? "Corolla " + i : "Camry " + (i % 40);
            items.create(Json.bytes(Json.object().put("id", "i" + i).put("pk", "p" + i % 17).put("s", model)
                    .put("e", model)), RequestOptions.NONE);
        }
    }

    /**
     * The filter pins the logical partition: the equality on the key would read that partition's 35 items again, the
     * string function's terms lead to its one Corolla.
     */
    @Test
    void aStringFunctionBesideThePinnedPartitionKeyLoadsOnlyItsMatches() {
        try (Engine engine = engine(3, null)) {
            loadModels(engine);
            Work[] work = {null};
            List<JsonNode> rows = drain(engine, "SELECT * FROM c WHERE c.pk = 'p7' AND CONTAINS(c.s, 'rOLL', true)",
                    Map.of(), 100, work);
            assertThat(rows).extracting(r -> r.get("id").asText()).containsExactly("i7");
            assertThat(work[0].itemsLoaded()).isEqualTo(1);
            Work[] equality = {null};
            drain(engine, "SELECT * FROM c WHERE c.pk = 'p7' AND c.id != 'x'", Map.of(), 100, equality);
            assertThat(equality[0].itemsLoaded()).as("the key's equality still answers alone").isEqualTo(35);
        }
    }

    /** Items written between pages: the next page resumes after the entry it stopped at and loses nothing. */
    @Test
    void pagesResumeAcrossWrites() {
        try (Engine engine = engine(1, null)) {
            ContainerHandle items = engine.container("db", "c");
            for (int i = 0; i < 30; i++) {
                items.create(Json.bytes(Json.object().put("id", "i" + i).put("pk", "p").put("s", "ab" + i % 5)),
                        RequestOptions.NONE);
            }
            var c = engine.readContainer("db", "c");
            List<String> seen = new ArrayList<>();
            String token = null;
            int page = 0;
            do {
                QueryPage p = engine.container(c).query("SELECT VALUE c.id FROM c WHERE CONTAINS(c.s, 'B', true)",
                        Map.of(), RequestOptions.scoped(dev.partita.core.request.Scope.CONTAINER)
                                .withContinuation(token).withMaxItemCount(4));
                p.rows().forEach(n -> seen.add(n.asText()));
                token = p.continuation();
                if (page++ == 1) {
                    items.create(Json.bytes(Json.object().put("id", "late").put("pk", "p").put("s", "zzz")),
                            RequestOptions.NONE);
                }
            } while (token != null);
            assertThat(seen).hasSize(30).doesNotHaveDuplicates();
        }
    }
}
