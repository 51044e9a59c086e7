package dev.partita.core.query;

import dev.partita.core.request.Scope;
import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Work;
import dev.partita.core.request.Conditions;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.RocksStore;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORDER BY read through the index returns, page by page, exactly the rows (and their order) of a whole evaluation of
 * the same range: undefined keys, arrays and objects, mixed types, ties (by rid), strings sharing a truncated term,
 * two-key orders on a composite index, DESC, TOP/OFFSET/LIMIT, JOINs, the SDK's rewritten form — also after writes
 * that move items in and out of the undefined part. And it reads only what a page needs.
 */
class OrderedIndexQueryTest {
    static final String WITH_COMPOSITE = """
            {"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/n"},{"path":"/s"}],
             [{"path":"/n","order":"descending"},{"path":"/a/b"}]]}""";

    static final List<String> ORDERS = List.of("c.n", "c.n DESC", "c.s", "c.s DESC", "c.a.b", "c.a.b DESC",
            "c.n, c.s", "c.n DESC, c.s DESC", "c.n DESC, c.a.b", "c.n ASC, c.a.b DESC");

    static final List<String> SHAPES = List.of(
            "SELECT * FROM c%s ORDER BY %s",
            "SELECT c.id, c.n, c.s FROM c%s ORDER BY %s",
            "SELECT VALUE c.id FROM c%s ORDER BY %s",
            "SELECT VALUE c.a.b FROM c%s ORDER BY %s",
            "SELECT TOP 7 c.id FROM c%s ORDER BY %s",
            "SELECT c.id FROM c%s ORDER BY %s OFFSET 3 LIMIT 11",
            "SELECT c.id, t AS tag FROM c JOIN t IN c.tags%s ORDER BY %s",
            "SELECT c._rid, [{\"item\": c.n}] AS orderByItems, c AS payload FROM c%s ORDER BY %s");

    @Property(tries = 30)
    void readingThroughTheIndexGivesTheRowsOfAWholeEvaluation(@ForAll long seed) {
        Random r = new Random(seed);
        int ranges = r.nextBoolean() ? 1 : 4;
        boolean restrictive = r.nextBoolean();
        try (Engine engine = IndexedQueryTest.engine(ranges, restrictive ? RESTRICTIVE : WITH_COMPOSITE)) {
            check(engine, r, restrictive);
        }
    }

    @Test
    void theRocksStoreReadsInBothDirectionsToo(@TempDir Path dir) {
        for (int seed = 0; seed < 3; seed++) {
            Random r = new Random(seed);
            try (Engine engine = IndexedQueryTest.engine(RocksStore.open(dir.resolve("s" + seed)), 1 + seed,
                    WITH_COMPOSITE, QueryExecutorTest.CLOCK)) {
                check(engine, r, false);
            }
        }
    }

    /** Only /n, /s and /a/b indexed, with the (n, s) composite. */
    static final String RESTRICTIVE = IndexedQueryTest.RESTRICTIVE.replace("\"excludedPaths\"",
            "\"compositeIndexes\":[[{\"path\":\"/n\"},{\"path\":\"/s\"}]],\"excludedPaths\"");

    static void check(Engine engine, Random r, boolean restrictive) {
        IndexedQueryTest.load(engine, r, 70);
        for (int round = 0; round < 2; round++) {
            for (int q = 0; q < 6; q++) {
                String order = ORDERS.get(r.nextInt(ORDERS.size()));
                if (restrictive && order.contains("a.b") && order.contains(",")) {
                    order = "c.n, c.s"; // the restrictive policy has only the (n, s) composite
                }
                Map<String, JsonNode> params = new HashMap<>();
                String where = switch (r.nextInt(7)) {
                    case 0 -> " WHERE " + IndexedQueryTest.filter(r, params);
                    case 1 -> " WHERE (true)";
                    case 2 -> " WHERE " + resumeFilter(r, order);
                    case 3 -> " WHERE c.pk = 'p" + r.nextInt(20) + "'";
                    case 4 -> " WHERE c.pk IN ('p1', 'p2') AND " + resumeFilter(r, order);
                    default -> "";
                };
                String query = SHAPES.get(r.nextInt(SHAPES.size())).formatted(where, order);
                for (int size : new int[] {1, 5, 1000}) {
                    assertPagesMatch(engine, query, params, size);
                }
            }
            // writes between rounds: items gain, lose and change their sort keys (the undefined set catches up)
            mutate(engine, r, 25);
        }
    }

    static final String[] TYPE_TESTS = {"NOT IS_DEFINED(%s)", "IS_NULL(%s)", "IS_BOOLEAN(%s)", "IS_NUMBER(%s)",
            "IS_STRING(%s)", "IS_ARRAY(%s)", "IS_OBJECT(%s)"};

    /** A filter of the shape the SDK sends when it resumes an ORDER BY query (query-plans.md §3.2) on the first key. */
    static String resumeFilter(Random r, String order) {
        String key = order.split("[ ,]")[0];
        boolean descending = order.startsWith(key + " DESC");
        String[] literals = {"null", "false", "true", "0", "3", "4.5", "'a'", "'b'", "'" + IndexedQueryTest.LONG + "'"};
        int[] types = {1, 2, 2, 3, 3, 3, 4, 4, 4};
        int pick = r.nextInt(literals.length);
        boolean inclusive = r.nextBoolean();
        StringBuilder f = new StringBuilder("(").append(key).append(' ')
                .append(descending ? (inclusive ? "<=" : "<") : (inclusive ? ">=" : ">")).append(' ')
                .append(literals[pick]);
        for (int t = 0; t < TYPE_TESTS.length; t++) {
            if (descending ? t < types[pick] : t > types[pick]) {
                f.append(" OR ").append(TYPE_TESTS[t].formatted(key));
            }
        }
        return f.append(")").toString();
    }

    static void assertPagesMatch(Engine engine, String query, Map<String, JsonNode> params, int size) {
        ContainerInfo c = engine.readContainer("db", "c");
        for (PhysicalPartition p : c.partitions().partitions()) {
            List<JsonNode> items = engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.range(p.id())))
                    .rows();
            List<JsonNode> expected = Sql.parse(query).execute(items, params, EvalContext.of(QueryExecutorTest.CLOCK));
            List<JsonNode> got = new ArrayList<>();
            String token = null;
            int pages = 0;
            do {
                QueryPage page = engine.container(c).query(query, params, RequestOptions.scoped(Scope.range(p.id())).withContinuation(token).withMaxItemCount(size));
                assertThat(page.rows().size()).isLessThanOrEqualTo(size);
                got.addAll(page.rows());
                token = page.continuation();
                assertThat(++pages).isLessThan(5_000);
            } while (token != null);
            assertThat(got).as(query + " " + params + " page " + size + " range " + p.id())
                    .containsExactlyElementsOf(expected);
        }
    }

    static void mutate(Engine engine, Random r, int count) {
        ContainerHandle items = engine.container("db", "c");
        for (int k = 0; k < count; k++) {
            String id = "i" + r.nextInt(70);
            String pk = IndexedQueryTest.pkOf(engine, id);
            String newPk = pk != null ? pk : "p" + r.nextInt(20);
            PartitionKeyValue key = PartitionKeyValue.fromHeader("[\"" + newPk + "\"]");
            String body = switch (r.nextInt(4)) {
                case 0 -> "{\"id\":\"" + id + "\",\"pk\":\"" + newPk + "\"}";
                case 1 -> "{\"id\":\"" + id + "\",\"pk\":\"" + newPk + "\",\"n\":[1],\"s\":{\"x\":1},\"a\":{\"b\":[]}}";
                case 2 -> IndexedQueryTest.doc(r, id, newPk).toString();
                default -> null;
            };
            if (body == null) {
                if (pk != null) {
                    items.delete(id, RequestOptions.of(key));
                }
            } else {
                items.upsert(body.getBytes(StandardCharsets.UTF_8), RequestOptions.of(key));
            }
        }
    }

    @Test
    void aSortedPageReadsWhatItReturnsNotTheWholeScope() {
        try (Engine engine = IndexedQueryTest.engine(1, null)) {
            ContainerHandle items = engine.container("db", "c");
            for (int i = 0; i < 400; i++) {
                String body = i % 50 == 0 ? "{\"id\":\"u" + i + "\",\"pk\":\"p" + (i % 7) + "\"}"
                        : "{\"id\":\"d" + i + "\",\"pk\":\"p" + (i % 7) + "\",\"n\":" + (i * 37 % 400) + "}";
                items.create(body.getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            }
            ContainerInfo c = engine.readContainer("db", "c");
            for (String q : List.of("SELECT * FROM c ORDER BY c.n", "SELECT * FROM c ORDER BY c.n DESC")) {
                QueryPage page = engine.container(c).query(q, Map.of(), RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(10));
                Work w = page.work();
                assertThat(page.rows()).hasSize(10);
                // ascending, the eight items without n come first; descending, the ten largest values
                assertThat(w.itemsLoaded()).as(q).isLessThanOrEqualTo(20);
                // and one term past the page's last, which tells whether this page is the last
                assertThat(w.indexEntriesRead()).as(q).isLessThanOrEqualTo(11);
                if (q.endsWith("DESC")) {
                    assertThat(page.rows().get(0).get("n").asInt()).isEqualTo(399);
                } else {
                    assertThat(page.rows().get(0).has("n")).isFalse();
                    assertThat(page.rows().get(8).get("n").asInt()).isEqualTo(1);
                }
            }
            // the SDK resuming from a user's continuation token: the filter's bound is where the read starts
            Map<String, Integer> resumed = Map.of(
                    "SELECT * FROM c WHERE (c.n > 300 OR IS_STRING(c.n) OR IS_ARRAY(c.n) OR IS_OBJECT(c.n))"
                            + " ORDER BY c.n", 301,
                    "SELECT * FROM c WHERE (c.n < 100 OR NOT IS_DEFINED(c.n) OR IS_NULL(c.n) OR IS_BOOLEAN(c.n))"
                            + " ORDER BY c.n DESC", 99);
            // a filter that pins the partition key reads that logical partition only, even sent to the container
            QueryPage pinned = engine.container(c).query("SELECT * FROM c WHERE c.pk = 'p3' ORDER BY c.n DESC", Map.of(), RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(10));
            assertThat(pinned.rows()).hasSize(10).allSatisfy(row -> assertThat(row.get("pk").asText()).isEqualTo("p3"));
            assertThat(pinned.work().itemsLoaded()).isLessThanOrEqualTo(10);
            resumed.forEach((q, first) -> {
                QueryPage page = engine.container(c).query(q, Map.of(), RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(10));
                assertThat(page.rows().get(0).get("n").asInt()).as(q).isEqualTo(first);
                assertThat(page.work().itemsLoaded()).as(q).isLessThanOrEqualTo(12);
            });
        }
    }

    @Test
    void tiesOnOneKeyAreReadInRidOrderWithoutParsingTheWholeGroup() {
        try (Engine engine = IndexedQueryTest.engine(1, null)) {
            ContainerHandle items = engine.container("db", "c");
            for (int i = 0; i < 330; i++) {
                String g = i < 30 ? "" : ",\"g\":\"" + (char) ('a' + i % 3) + "\"";
                items.create(("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 5) + "\"" + g + "}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            }
            ContainerInfo c = engine.readContainer("db", "c");
            for (String q : List.of("SELECT * FROM c ORDER BY c.g", "SELECT * FROM c ORDER BY c.g DESC")) {
                List<JsonNode> expected = Sql.parse(q).execute(
                        engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.CONTAINER)).rows(),
                        Map.of(), EvalContext.of(QueryExecutorTest.CLOCK));
                String token = null;
                List<JsonNode> got = new ArrayList<>();
                for (int page = 0; page < 3; page++) {
                    QueryPage p = engine.container(c).query(q, Map.of(), RequestOptions.scoped(Scope.CONTAINER).withContinuation(token).withMaxItemCount(10));
                    // a group of 30 undefined or 100 equal values: only the page's 10 items are parsed (and, on a
                    // later page, the item the previous one stopped in, whose rows it passes over)
                    assertThat(p.work().itemsLoaded()).as(q + " page " + page).isEqualTo(page == 0 ? 10 : 11);
                    got.addAll(p.rows());
                    token = p.continuation();
                }
                assertThat(got).as(q).containsExactlyElementsOf(expected.subList(0, 30));
            }
        }
    }
}
