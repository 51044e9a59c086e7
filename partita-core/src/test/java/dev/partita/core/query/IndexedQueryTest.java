package dev.partita.core.query;

import dev.partita.core.request.Scope;
import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.MutableClock;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
import dev.partita.core.item.StoredItem;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.value.Values;
import dev.partita.core.store.RocksStore;
import java.nio.charset.StandardCharsets;
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
 * Index use: a query answered through the index returns exactly the rows a full evaluation returns, for random items,
 * random sargable filters, page sizes and range counts, under the default and a restrictive policy; the index is
 * maintained on every write path; and the work recorded shows what the index saved.
 */
class IndexedQueryTest {
    static final String RESTRICTIVE = """
            {"includedPaths":[{"path":"/n/?"},{"path":"/s/?"},{"path":"/a/b/?"}],"excludedPaths":[{"path":"/*"}]}""";

    /** As long as the part of a string an index term keeps: longer strings share terms. */
    static final String LONG = "x".repeat(100);

    static final List<String> SHAPES = List.of(
            "SELECT * FROM c WHERE %s",
            "SELECT VALUE c.id FROM c WHERE %s",
            "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE %s",
            "SELECT VALUE COUNT(1) FROM c WHERE %s",
            "SELECT c.id, c.n FROM c WHERE %s ORDER BY c.n",
            "SELECT DISTINCT VALUE c.s FROM c WHERE %s",
            "SELECT VALUE c.id FROM c WHERE %s OFFSET 2 LIMIT 5");

    static Engine engine(int ranges, String policy) {
        return engine(ranges, policy, QueryExecutorTest.CLOCK);
    }

    static Engine engine(int ranges, String policy, java.time.Clock clock) {
        return engine(new MemoryStore(), ranges, policy, clock);
    }

    static Engine engine(dev.partita.core.store.Store store, int ranges, String policy, java.time.Clock clock) {
        Engine engine = Engine.open(store, clock, Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t");
        if (policy != null) {
            body.set("indexingPolicy", Json.parse(policy, "policy"));
        }
        engine.createContainer("db", body, Throughput.NONE, ranges);
        return engine;
    }

    // ---- random items and filters

    static JsonNode scalar(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> Json.NODES.nullNode();
            case 1 -> Json.NODES.booleanNode(r.nextBoolean());
            case 2 -> Json.NODES.numberNode(r.nextInt(10) + 0.5);
            case 3 -> Json.NODES.textNode(String.valueOf(r.nextInt(10)));
            case 4 -> Json.NODES.numberNode((double) r.nextInt(10));
            default -> Json.NODES.numberNode(r.nextInt(14) - 2);
        };
    }

    static String string(Random r) {
        String[] pool = {"", "a", "ab", "abc", "b", "ba", "bz", "c", "é", "\u0000x", "\uffff", "\ud83d\ude00",
                LONG, LONG + "a", LONG + "b", LONG.substring(1)};
        return pool[r.nextInt(pool.length)];
    }

    static ObjectNode doc(Random r, String id, String pk) {
        ObjectNode d = Json.object().put("id", id).put("pk", pk);
        if (r.nextInt(8) > 0) {
            d.set("n", scalar(r));
        }
        if (r.nextInt(6) > 0) {
            d.put("s", string(r));
        } else if (r.nextBoolean()) {
            d.put("s", r.nextInt(5));
        }
        if (r.nextInt(3) > 0) {
            ObjectNode a = d.putObject("a");
            if (r.nextInt(4) > 0) {
                a.set("b", scalar(r));
            }
        } else if (r.nextBoolean()) {
            d.putArray("a").addObject().set("b", scalar(r));
        }
        ArrayNode tags = d.putArray("tags");
        for (int i = r.nextInt(3); i > 0; i--) {
            tags.add(string(r));
        }
        d.put("flag", r.nextBoolean());
        return d;
    }

    /** A filter with at least one sargable conjunct (often with a parameter), sometimes with a residual one. */
    static String filter(Random r, Map<String, JsonNode> params) {
        String f = switch (r.nextInt(14)) {
            case 0 -> "c.n = " + lit(r, params, Json.NODES.numberNode(r.nextInt(10)));
            case 1 -> "c.n IN (" + (r.nextInt(8)) + ", " + (r.nextInt(8) + 0.5) + ", '3', null, true)";
            case 2 -> "c.n > " + lit(r, params, Json.NODES.numberNode(r.nextInt(10)));
            case 3 -> "c.n >= " + r.nextInt(10) + " AND c.n < " + r.nextInt(12);
            case 4 -> "c.n BETWEEN " + r.nextInt(6) + " AND " + (r.nextInt(6) + 3);
            case 5 -> r.nextInt(10) + " <= c.n";
            case 6 -> "STARTSWITH(c.s, " + lit(r, params, Json.NODES.textNode(string(r))) + ")";
            case 7 -> "STARTSWITH(c.s, 'b', false)";
            case 8 -> "c.s > " + lit(r, params, Json.NODES.textNode(string(r)));
            case 9 -> "c.a.b = " + lit(r, params, scalar(r));
            case 10 -> "c.flag = " + r.nextBoolean();
            case 11 -> "c.n = null";
            case 12 -> "c.s = " + lit(r, params, Json.NODES.textNode(string(r)));
            default -> "c.a.b < 5 AND c.a.b > " + lit(r, params, Json.NODES.textNode("1"));
        };
        return switch (r.nextInt(4)) {
            case 0 -> f + " AND c.id != 'i3'";
            case 1 -> "c.flag = true AND " + f;
            default -> f;
        };
    }

    static String lit(Random r, Map<String, JsonNode> params, JsonNode v) {
        if (r.nextBoolean()) {
            String name = "@p" + params.size();
            params.put(name, v);
            return name;
        }
        if (v.isTextual() && v.textValue().chars().anyMatch(ch -> ch < 0x20 || ch > 0x7e)) {
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
        // then change some of them through every write path
        for (int k = 0; k < count / 3; k++) {
            int i = r.nextInt(count);
            String pk = pkOf(engine, "i" + i);
            if (pk == null) {
                continue;
            }
            PartitionKeyValue key = PartitionKeyValue.fromHeader("[\"" + pk + "\"]");
            switch (r.nextInt(6)) {
                case 0 -> items.replace("i" + i, Json.bytes(doc(r, "i" + i, pk)), RequestOptions.of(key));
                case 1 -> items.upsert(Json.bytes(doc(r, "i" + i, pk)), RequestOptions.of(key));
                case 2 -> items.patch("i" + i, ("{\"operations\":[{\"op\":\"set\",\"path\":\"/n\",\"value\":"
                        + scalar(r) + "}]}").getBytes(StandardCharsets.UTF_8), RequestOptions.of(key));
                case 3 -> items.delete("i" + i, RequestOptions.of(key));
                case 4 -> items.batch(("[{\"operationType\":\"Upsert\",\"resourceBody\":"
                        + doc(r, "i" + i, pk) + "},{\"operationType\":\"Create\",\"resourceBody\":"
                        + doc(r, "b" + k, pk) + "}]").getBytes(StandardCharsets.UTF_8), RequestOptions.of(key));
                default -> items.bulk(("[{\"operationType\":\"Replace\",\"partitionKey\":\"[\\\"" + pk
                        + "\\\"]\",\"id\":\"i" + i + "\",\"resourceBody\":" + doc(r, "i" + i, pk) + "}]")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            }
        }
    }

    static String pkOf(Engine engine, String id) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<JsonNode> rows = engine.container(c).query("SELECT VALUE c.pk FROM c WHERE c.id = @id", Map.of("@id", Json.NODES.textNode(id)), RequestOptions.scoped(Scope.CONTAINER)).rows();
        return rows.isEmpty() ? null : rows.get(0).asText();
    }

    static List<JsonNode> drain(Engine engine, String query, Map<String, JsonNode> params, int pageSize,
            Work[] total) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<JsonNode> rows = new ArrayList<>();
        for (PhysicalPartition p : c.partitions().partitions()) {
            String token = null;
            int pages = 0;
            do {
                QueryPage page = engine.container(c).query(query, params, RequestOptions.scoped(Scope.range(p.id())).withContinuation(token).withMaxItemCount(pageSize));
                assertThat(page.rows().size()).isLessThanOrEqualTo(pageSize);
                rows.addAll(page.rows());
                token = page.continuation();
                if (total != null) {
                    total[0] = add(total[0], page.work());
                }
                assertThat(++pages).isLessThan(10_000);
            } while (token != null);
        }
        return rows;
    }

    static Work add(Work a, Work b) {
        return a == null ? b : Work.scan(b.operation(), a.indexEntriesRead() + b.indexEntriesRead(),
                a.itemsLoaded() + b.itemsLoaded(), a.bytesLoaded() + b.bytesLoaded(),
                a.rowsReturned() + b.rowsReturned(), a.bytesReturned() + b.bytesReturned(),
                a.functionCalls() + b.functionCalls());
    }

    static List<JsonNode> whole(Engine engine, String query, Map<String, JsonNode> params) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<JsonNode> all = engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.CONTAINER)).rows();
        return Sql.parse(query).execute(all, params, EvalContext.of(QueryExecutorTest.CLOCK));
    }

    /** The index entries in the store, and the ones a rebuild from the stored items would write: must be equal. */
    static void assertIndexMatchesItems(Engine engine) {
        ContainerInfo c = engine.readContainer("db", "c");
        IndexingPolicy policy = c.indexingPolicy();
        TreeSet<byte[]> stored = new TreeSet<>(Bytes.COMPARATOR);
        try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.indexSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.indexSpace(), c.containerId()))) {
            while (cur.next()) {
                stored.add(cur.key());
            }
        }
        TreeSet<byte[]> expected = new TreeSet<>(Bytes.COMPARATOR);
        byte[][] range = StoreKeys.itemRange(c.containerId(), "", "FF");
        try (Cursor cur = engine.store().scan(range[0], range[1])) {
            while (cur.next()) {
                JsonNode doc = Json.parse(StoredItem.wrap(cur.value()).json(), "item");
                for (byte[] t : IndexTerms.of(policy, doc)) {
                    expected.add(StoreKeys.index(c.containerId(), t, StoreKeys.itemEpk(cur.key()),
                            StoreKeys.itemId(cur.key())));
                }
            }
        }
        assertThat(stored.size()).isEqualTo(expected.size());
        assertThat(stored.stream().map(Bytes::hex).toList()).isEqualTo(expected.stream().map(Bytes::hex).toList());
    }

    @Property(tries = 40)
    void indexedExecutionReturnsTheRowsOfAFullEvaluation(@ForAll long seed) {
        Random r = new Random(seed);
        int ranges = r.nextBoolean() ? 1 : 5;
        String policy = r.nextBoolean() ? null : RESTRICTIVE;
        try (Engine engine = engine(ranges, policy)) {
            checkAgainstFullEvaluation(engine, r, ranges);
        }
    }

    @Test
    void rocksStoreAnswersLookupsLikeAFullEvaluation(@TempDir Path dir) {
        onRocksStores(dir, RESTRICTIVE, IndexedQueryTest::checkAgainstFullEvaluation);
    }

    /** A check of an engine loaded at random (its random source and range count). */
    interface EngineCheck {
        void check(Engine engine, Random r, int ranges);
    }

    /** Runs the check on four RocksStore engines: 1 and 5 ranges, under the default and under the given policy. */
    static void onRocksStores(Path dir, String policy, EngineCheck check) {
        for (int seed = 0; seed < 4; seed++) {
            Random r = new Random(seed);
            int ranges = seed % 2 == 0 ? 1 : 5;
            try (Engine engine = engine(RocksStore.open(dir.resolve("s" + seed)), ranges,
                    seed < 2 ? null : policy, QueryExecutorTest.CLOCK)) {
                check.check(engine, r, ranges);
            }
        }
    }

    static void checkAgainstFullEvaluation(Engine engine, Random r, int ranges) {
        load(engine, r, 60);
        assertIndexMatchesItems(engine);
        for (int q = 0; q < 6; q++) {
            Map<String, JsonNode> params = new HashMap<>();
            String query = SHAPES.get(r.nextInt(SHAPES.size())).formatted(filter(r, params));
            List<JsonNode> expected = whole(engine, query, params);
            for (int size : new int[] {1, 7, 1000}) {
                List<JsonNode> got = drain(engine, query, params, size, null);
                if (query.contains("OFFSET")) {
                    // which rows a page of an unordered query skips is up to the engine: check the count and origin
                    List<JsonNode> unpaged = whole(engine, query.replace(" OFFSET 2 LIMIT 5", ""), params);
                    assertThat(unpaged).as(query).containsAll(got);
                    if (ranges == 1) {
                        assertThat(got).as(query + " / " + size).hasSize(Math.min(5, Math.max(0, unpaged.size() - 2)));
                    }
                } else if (query.startsWith("SELECT VALUE COUNT")) {
                    assertThat(got.stream().mapToLong(JsonNode::asLong).sum()).as(query)
                            .isEqualTo(expected.get(0).asLong());
                } else if (query.contains("ORDER BY") && ranges == 1) {
                    assertThat(got).as(query + " / " + size).containsExactlyElementsOf(expected);
                } else if (query.contains("DISTINCT")) {
                    assertThat(new TreeSet<>(got.stream().map(JsonNode::toString).toList())).as(query)
                            .isEqualTo(new TreeSet<>(expected.stream().map(JsonNode::toString).toList()));
                } else {
                    assertThat(got).as(query + " / " + size + " " + params)
                            .containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        }
    }

    @Test
    void aPolicyChangeRebuildsTheIndex() {
        Random r = new Random(5);
        try (Engine engine = engine(3, null)) {
            load(engine, r, 80);
            assertIndexMatchesItems(engine);
            long before = indexEntries(engine);
            ObjectNode body = engine.readContainer("db", "c").properties().deepCopy();
            body.set("indexingPolicy", Json.parse(RESTRICTIVE, "policy"));
            engine.replaceContainer("db", "c", body);
            assertIndexMatchesItems(engine);
            assertThat(indexEntries(engine)).isLessThan(before / 2);
            String q = "SELECT VALUE c.id FROM c WHERE c.n >= 3";
            assertThat(drain(engine, q, Map.of(), 4, null)).containsExactlyInAnyOrderElementsOf(
                    whole(engine, q, Map.of()));
        }
    }

    @Test
    void aContainerWhoseIndexIsNotBuiltForItsPolicyScansUntilARebuild() {
        Random r = new Random(9);
        try (Engine engine = engine(2, null)) {
            load(engine, r, 40);
            ContainerInfo c = engine.readContainer("db", "c");
            // as for data stored before indexes existed, or a rebuild cut short by a crash
            engine.store().apply(new dev.partita.core.store.WriteBatch().delete(
                    dev.partita.core.index.IndexState.key(c.containerId())));
            // a replace with the same policy publishes a new container value (no rebuild): the record is read again
            engine.replaceContainer("db", "c", c.properties().deepCopy());
            String q = "SELECT VALUE c.id FROM c WHERE c.n = 3";
            Work[] scan = {null};
            assertThat(drain(engine, q, Map.of(), 1000, scan)).containsExactlyInAnyOrderElementsOf(
                    whole(engine, q, Map.of()));
            assertThat(scan[0].indexEntriesRead()).isZero();
            assertThat(scan[0].itemsLoaded()).isEqualTo(whole(engine, "SELECT * FROM c", Map.of()).size());
            ObjectNode body = engine.readContainer("db", "c").properties().deepCopy();
            body.set("indexingPolicy", Json.parse(RESTRICTIVE, "policy"));
            engine.replaceContainer("db", "c", body);
            Work[] lookup = {null};
            List<JsonNode> rows = drain(engine, q, Map.of(), 1000, lookup);
            assertThat(rows).containsExactlyInAnyOrderElementsOf(whole(engine, q, Map.of()));
            assertThat(lookup[0].itemsLoaded()).isEqualTo(rows.size());
        }
    }

    @Test
    void anEngineOpeningAStoreRebuildsIndexesLeftIncomplete(@TempDir Path dir) {
        Random r = new Random(13);
        try (Engine engine = engine(RocksStore.open(dir), 2, null, QueryExecutorTest.CLOCK)) {
            load(engine, r, 40);
            ContainerInfo c = engine.readContainer("db", "c");
            // a crash in the middle of a rebuild: the record is gone and some entries with it
            dev.partita.core.store.WriteBatch cut = new dev.partita.core.store.WriteBatch()
                    .delete(dev.partita.core.index.IndexState.key(c.containerId()));
            try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.indexSpace(), c.containerId()),
                    StoreKeys.containerEnd(StoreKeys.indexSpace(), c.containerId()))) {
                for (int i = 0; i < 50 && cur.next(); i++) {
                    cut.delete(cur.key());
                }
            }
            engine.store().apply(cut);
        }
        try (Engine reopened = Engine.open(RocksStore.open(dir), QueryExecutorTest.CLOCK, Limits.DEFAULTS)) {
            assertIndexMatchesItems(reopened);
            String q = "SELECT VALUE c.id FROM c WHERE c.s >= 'b'";
            Work[] lookup = {null};
            List<JsonNode> rows = drain(reopened, q, Map.of(), 5, lookup);
            assertThat(rows).containsExactlyInAnyOrderElementsOf(whole(reopened, q, Map.of()));
            assertThat(lookup[0].indexEntriesRead()).isPositive();
        }
    }

    @Test
    void expiredItemsLeaveTheIndexWhenPurged() {
        MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-30T00:00:00Z"));
        try (Engine engine = engine(1, null, clock)) {
            ObjectNode body = engine.readContainer("db", "c").properties().deepCopy();
            body.put("defaultTtl", 10);
            engine.replaceContainer("db", "c", body);
            ContainerHandle items = engine.container("db", "c");
            for (int i = 0; i < 10; i++) {
                items.create(("{\"id\":\"t" + i + "\",\"pk\":\"p\",\"n\":1}").getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            }
            long full = indexEntries(engine);
            clock.advance(java.time.Duration.ofSeconds(11));
            assertThat(drain(engine, "SELECT * FROM c WHERE c.n = 1", Map.of(), 3, null)).isEmpty();
            assertThat(engine.sweepExpired()).isEqualTo(10);
            assertThat(full).isPositive();
            assertThat(indexEntries(engine)).isZero();
        }
    }

    static long indexEntries(Engine engine) {
        ContainerInfo c = engine.readContainer("db", "c");
        long n = 0;
        try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.indexSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.indexSpace(), c.containerId()))) {
            while (cur.next()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void anExcludedPathFilterLoadsEveryItemWhileAnIndexedOneLoadsOnlyMatches() {
        String policy = """
                {"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/cold/?"}]}""";
        for (int ranges : new int[] {1, 4}) {
            try (Engine engine = engine(ranges, policy)) {
                ContainerHandle items = engine.container("db", "c");
                for (int i = 0; i < 500; i++) {
                    items.create(("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 37) + "\",\"hot\":" + i
                            + ",\"cold\":" + i + "}").getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
                }
                Work[] hot = {null};
                Work[] cold = {null};
                assertThat(drain(engine, "SELECT * FROM c WHERE c.hot = 42", Map.of(), 10, hot)).hasSize(1);
                assertThat(drain(engine, "SELECT * FROM c WHERE c.cold = 42", Map.of(), 10, cold)).hasSize(1);
                assertThat(hot[0].itemsLoaded()).isEqualTo(1);
                assertThat(hot[0].indexEntriesRead()).isEqualTo(1);
                assertThat(cold[0].itemsLoaded()).isEqualTo(500);
                assertThat(cold[0].indexEntriesRead()).isZero();
                assertThat(cold[0].bytesLoaded()).isGreaterThan(100 * hot[0].bytesLoaded());
                Work[] range = {null};
                assertThat(drain(engine, "SELECT VALUE c.id FROM c WHERE c.hot >= 100 AND c.hot < 110", Map.of(), 100,
                        range)).hasSize(10);
                assertThat(range[0].itemsLoaded()).isEqualTo(10);
                // paged, each page re-reads the item it stopped in (to skip the rows of it already returned)
                Work[] paged = {null};
                assertThat(drain(engine, "SELECT VALUE c.id FROM c WHERE c.hot >= 100 AND c.hot < 110", Map.of(), 3,
                        paged)).hasSize(10);
                assertThat(paged[0].itemsLoaded()).isBetween(10L, 10L + 3 + ranges);
                Work[] count = {null};
                assertThat(drain(engine, "SELECT VALUE COUNT(1) FROM c WHERE c.hot IN (1, 2, 3)", Map.of(), 10,
                        count).stream().mapToLong(JsonNode::asLong).sum()).isEqualTo(3);
                assertThat(count[0].itemsLoaded()).isEqualTo(3);
            }
        }
    }

    @Test
    void writesRecordTheTermsTheyTouch() {
        String nine = """
                {"includedPaths":[{"path":"/p1/?"},{"path":"/p2/?"},{"path":"/p3/?"},{"path":"/p4/?"},
                 {"path":"/p5/?"},{"path":"/p6/?"},{"path":"/p7/?"},{"path":"/p8/?"},{"path":"/p9/?"}],
                 "excludedPaths":[{"path":"/*"}]}""";
        StringBuilder item = new StringBuilder("{\"id\":\"x\",\"pk\":\"p\"");
        for (int i = 1; i <= 20; i++) {
            item.append(",\"p").append(i).append("\":").append(i);
        }
        byte[] body = item.append('}').toString().getBytes(StandardCharsets.UTF_8);
        PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"p\"]");
        try (Engine all = engine(1, null); Engine some = engine(1, nine)) {
            ItemResult a = all.container("db", "c").create(body, RequestOptions.NONE);
            ItemResult s = some.container("db", "c").create(body, RequestOptions.NONE);
            // default: id, pk, p1..p20, _rid, _self, _attachments, _ts (not _etag); nine paths: those + id + _ts
            assertThat(a.work().indexTerms()).isEqualTo(26);
            assertThat(s.work().indexTerms()).isEqualTo(11);
            assertThat(all.container("db", "c").replace("x", body, RequestOptions.of(pk)).work().indexTerms())
                    .isEqualTo(52);
            assertThat(all.container("db", "c").delete("x", RequestOptions.of(pk)).work().indexTerms()).isEqualTo(26);
            assertThat(indexEntries(all)).isZero();
        }
        try (Engine off = engine(1, "{\"indexingMode\":\"none\",\"automatic\":false}")) {
            assertThat(off.container("db", "c").create(body, RequestOptions.NONE).work().indexTerms()).isZero();
        }
    }

    @Test
    void orderByNeedsTheIndexTheServiceNeeds() {
        String policy = """
                {"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/secret/?"}],
                 "compositeIndexes":[[{"path":"/a"},{"path":"/b","order":"descending"}]]}""";
        try (Engine engine = engine(2, policy)) {
            ContainerInfo c = engine.readContainer("db", "c");
            for (String ok : List.of("SELECT * FROM c ORDER BY c.a", "SELECT * FROM c ORDER BY c.a, c.b DESC",
                    "SELECT * FROM c ORDER BY c.a DESC, c.b ASC", "SELECT * FROM c ORDER BY c._ts")) {
                engine.container(c).query(ok, Map.of(), RequestOptions.scoped(Scope.range("0")).withMaxItemCount(10));
                engine.container(c).queryPlan(ok, Map.of(), null, RequestOptions.NONE);
            }
            for (String[] bad : new String[][] {
                    {"SELECT * FROM c ORDER BY c.a, c.b", OrderByIndexRule.NO_COMPOSITE},
                    {"SELECT * FROM c ORDER BY c.b DESC, c.a", OrderByIndexRule.NO_COMPOSITE},
                    {"SELECT * FROM c ORDER BY c.a, c.b DESC, c.x", OrderByIndexRule.NO_COMPOSITE},
                    {"SELECT * FROM c ORDER BY c.secret", OrderByIndexRule.EXCLUDED},
                    {"SELECT c._rid, [{\"item\": c.a}, {\"item\": c.x}] AS orderByItems, c AS payload FROM c"
                            + " WHERE true ORDER BY c.a, c.x", OrderByIndexRule.NO_COMPOSITE}}) {
                assertThatThrownBy(() -> engine.container(c).query(bad[0], Map.of(), RequestOptions.scoped(Scope.range("0")).withMaxItemCount(10)))
                        .as(bad[0]).isInstanceOfSatisfying(ServiceException.class,
                                e -> assertThat(e.status()).isEqualTo(400)).hasMessage(bad[1]);
                assertThatThrownBy(() -> engine.container(c).queryPlan(bad[0], Map.of(), null, RequestOptions.NONE)).as(bad[0])
                        .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            }
        }
    }

    @Test
    void indexedPagesSurviveWritesBetweenThem() {
        try (Engine engine = engine(1, null)) {
            ContainerHandle items = engine.container("db", "c");
            for (int i = 0; i < 50; i++) {
                items.create(("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 7) + "\",\"n\":" + (i % 5) + "}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            }
            ContainerInfo c = engine.readContainer("db", "c");
            List<String> seen = new ArrayList<>();
            String token = null;
            int extra = 0;
            do {
                QueryPage page = engine.container(c).query("SELECT VALUE c.id FROM c WHERE c.n = 2", Map.of(), RequestOptions.scoped(Scope.range("0")).withContinuation(token).withMaxItemCount(3));
                page.rows().forEach(row -> seen.add(row.asText()));
                token = page.continuation();
                if (token != null) {
                    assertThat(token).startsWith("I.");
                }
                items.create(("{\"id\":\"new" + extra++ + "\",\"pk\":\"zz\",\"n\":2}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            } while (token != null);
            assertThat(seen).doesNotHaveDuplicates();
            for (int i = 2; i < 50; i += 5) {
                assertThat(seen).contains("i" + i);
            }
        }
    }
}
