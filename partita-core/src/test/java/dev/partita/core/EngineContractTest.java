package dev.partita.core;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.json.Json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.changefeed.ChangeRecord;
import dev.partita.core.item.BatchResult;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemIdentity;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.Items;
import dev.partita.core.item.StoredItem;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's behaviour for databases, containers and items, run once per store implementation. Every bad-input case
 * checks the status, and that nothing was written.
 */
abstract class EngineContractTest {

    @TempDir
    Path tmp;

    MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
    Engine engine;

    protected abstract Store openStore(Path dir);

    /** Patch conditions here: "FROM c WHERE true" and "... false"; the query language has its own tests. */
    static boolean testCondition(String condition, JsonNode item) {
        return condition.trim().endsWith("true");
    }

    @BeforeEach
    void open() {
        engine = Engine.open(openStore(tmp), clock, Limits.DEFAULTS, EngineContractTest::testCondition);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    // ---- helpers

    static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test");
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static PartitionKeyValue pk(String headerJson) {
        return PartitionKeyValue.fromHeader(headerJson);
    }

    ContainerInfo container(String body) {
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        return engine.createContainer("db", json(body), Throughput.NONE, 0);
    }

    Items items() {
        return engine.items("db", "c");
    }

    static JsonNode doc(ItemResult r) {
        return Json.parse(r.item().json(), "result");
    }

    static void assertStatus(Runnable r, int status, int subStatus) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.subStatus()).isEqualTo(subStatus);
        });
    }

    long countItems(ContainerInfo c) {
        byte[][] r = StoreKeys.itemRange(c.containerId(), "", "FF");
        long n = 0;
        try (Cursor cur = engine.store().scan(r[0], r[1])) {
            while (cur.next()) {
                n++;
            }
        }
        return n;
    }

    List<ChangeRecord> changeLog(ContainerInfo c) {
        List<ChangeRecord> out = new ArrayList<>();
        try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
            while (cur.next()) {
                out.add(ChangeRecord.decode(cur.value()));
            }
        }
        return out;
    }

    // ---- databases and containers

    @Test
    void databaseLifecycleAndRids() {
        DatabaseInfo db = engine.createDatabase(json("{\"id\":\"db1\"}"), Throughput.NONE);
        assertThat(ResourceIds.tryDecode(db.rid())).hasSize(4);
        assertThat(ResourceIds.isDatabaseRid(db.rid())).isTrue();
        assertThat(db.toJson().get("_self").asText()).isEqualTo("dbs/" + db.rid() + "/");
        assertThat(engine.readDatabase("db1")).isEqualTo(db);
        assertThat(engine.databaseByRid(db.rid())).isEqualTo(db);
        assertStatus(() -> engine.createDatabase(json("{\"id\":\"db1\"}"), Throughput.NONE), 409, 0);
        engine.createDatabase(json("{\"id\":\"db2\"}"), Throughput.NONE);
        assertThat(engine.listDatabases()).extracting(DatabaseInfo::id).containsExactly("db1", "db2");
        engine.deleteDatabase("db1");
        assertStatus(() -> engine.readDatabase("db1"), 404, 0);
        assertStatus(() -> engine.deleteDatabase("db1"), 404, 0);
    }

    @Test
    void badResourceIdsAreRejected() {
        for (String bad : List.of("a/b", "a\\\\b", "a#b", "a?b", "", "x".repeat(256))) {
            assertStatus(() -> engine.createDatabase(json("{\"id\":\"" + bad + "\"}"), Throughput.NONE), 400, 0);
        }
        assertStatus(() -> engine.createDatabase(json("{\"id\":5}"), Throughput.NONE), 400, 0);
        assertThat(engine.listDatabases()).isEmpty();
    }

    @Test
    void containerRidsNestUnderTheDatabaseAndAreUniqueAcrossTheAccount() {
        engine.createDatabase(json("{\"id\":\"a\"}"), Throughput.NONE);
        engine.createDatabase(json("{\"id\":\"b\"}"), Throughput.NONE);
        ContainerInfo c1 = engine.createContainer("a", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.NONE, 0);
        ContainerInfo c2 = engine.createContainer("b", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.NONE, 0);
        byte[] r1 = ResourceIds.tryDecode(c1.rid());
        byte[] r2 = ResourceIds.tryDecode(c2.rid());
        assertThat(r1).hasSize(8);
        assertThat(r1[4] & 0x80).isEqualTo(0x80);
        assertThat(java.util.Arrays.copyOf(r1, 4)).isEqualTo(ResourceIds.tryDecode(engine.readDatabase("a").rid()));
        assertThat(ResourceIds.containerId(r1)).isNotEqualTo(ResourceIds.containerId(r2));
        ObjectNode shown = c1.toJson();
        assertThat(shown.get("_self").asText()).isEqualTo("dbs/" + c1.databaseRid() + "/colls/" + c1.rid() + "/");
        assertThat(shown.at("/partitionKey/version").asInt()).isEqualTo(2);
        assertThat(shown.at("/partitionKey/kind").asText()).isEqualTo("Hash");
        assertThat(shown.at("/indexingPolicy/indexingMode").asText()).isEqualTo("consistent");
        assertThat(shown.at("/conflictResolutionPolicy/mode").asText()).isEqualTo("LastWriterWins");
        assertStatus(() -> engine.createContainer("a", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.NONE, 0), 409, 0);
        assertStatus(() -> engine.createContainer("nope", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.NONE, 0), 404, 0);
    }

    @Test
    void containerDefinitionsAreValidated() {
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        for (String bad : List.of(
                "{\"id\":\"c\"}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[]}}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"pk\"]}}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/a\",\"/b\",\"/c\",\"/d\"],\"kind\":\"MultiHash\"}}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":0}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"indexingPolicy\":{\"indexingMode\":\"eager\"}}",
                "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"uniqueKeyPolicy\":{\"uniqueKeys\":[{\"paths\":[]}]}}")) {
            assertStatus(() -> engine.createContainer("db", json(bad), Throughput.NONE, 0), 400, 0);
        }
        assertThat(engine.listContainers("db")).isEmpty();
    }

    @Test
    void replaceContainerKeepsThePartitionKey() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ContainerInfo r = engine.replaceContainer("db", "c",
                json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":60}"));
        assertThat(r.defaultTtl()).isEqualTo(60);
        assertThat(r.etag()).isNotEqualTo(engine.listContainers("db").get(0).etag() + "x");
        assertStatus(() -> engine.replaceContainer("db", "c", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/other\"]}}")),
                400, 0);
    }

    @Test
    void initialPartitionsFollowTheDocumentedRule() {
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        String body = "{\"id\":\"%s\",\"partitionKey\":{\"paths\":[\"/pk\"]}}";
        assertThat(engine.createContainer("db", json(body.formatted("m")), Throughput.manual(400), 0).partitions().size())
                .isEqualTo(1);
        assertThat(engine.createContainer("db", json(body.formatted("m30")), Throughput.manual(30_000), 0)
                .partitions().size()).isEqualTo(5);
        assertThat(engine.createContainer("db", json(body.formatted("a40")), Throughput.autoscale(40_000), 0)
                .partitions().size()).isEqualTo(4);
        ContainerInfo explicit = engine.createContainer("db", json(body.formatted("x")), Throughput.NONE, 7);
        assertThat(explicit.partitions().partitions()).extracting(PhysicalPartition::id)
                .containsExactly("0", "1", "2", "3", "4", "5", "6");
        assertThat(explicit.partitions().partitions().get(0).minInclusive()).isEmpty();
        assertThat(explicit.partitions().partitions().get(6).maxExclusive()).isEqualTo("FF");
    }

    @Test
    void deletingAContainerDeletesItsData() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        for (int i = 0; i < 50; i++) {
            items().create(null, bytes("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 5) + "\"}"), Conditions.NONE);
        }
        assertThat(countItems(c)).isEqualTo(50);
        engine.deleteContainer("db", "c");
        assertThat(countItems(c)).isZero();
        assertThat(changeLog(c)).isEmpty();
        assertStatus(() -> engine.items("db", "c"), 404, 0);
    }

    // ---- point operations

    @Test
    void createReadReplaceUpsertDelete() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult created = items().create(pk("[\"a\"]"), bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":1}"), Conditions.NONE);
        assertThat(created.status()).isEqualTo(201);
        JsonNode d = doc(created);
        assertThat(d.get("n").asInt()).isEqualTo(1);
        assertThat(d.get("_etag").asText()).isEqualTo(created.etag());
        assertThat(d.get("_ts").asLong()).isEqualTo(clock.millis() / 1000);
        assertThat(d.get("_attachments").asText()).isEqualTo("attachments/");
        byte[] docRid = ResourceIds.tryDecode(d.get("_rid").asText());
        assertThat(docRid).hasSize(16);
        assertThat(docRid[15] & 0xF0).isZero();
        assertThat(java.util.Arrays.copyOf(docRid, 8)).isEqualTo(ResourceIds.tryDecode(c.rid()));
        assertThat(created.sessionToken()).matches("0:-1#\\d+");

        ItemResult read = items().read(pk("[\"a\"]"), "1", Conditions.NONE);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.item().json()).isEqualTo(created.item().json());
        assertThat(items().read(pk("[\"a\"]"), "1", Conditions.ifNoneMatch(created.etag())).status()).isEqualTo(304);

        assertStatus(() -> items().create(pk("[\"a\"]"), bytes("{\"id\":\"1\",\"pk\":\"a\"}"), Conditions.NONE), 409, 0);
        // the same id in another logical partition is another item
        assertThat(items().create(pk("[\"b\"]"), bytes("{\"id\":\"1\",\"pk\":\"b\"}"), Conditions.NONE).status())
                .isEqualTo(201);

        ItemResult replaced = items().replace(pk("[\"a\"]"), "1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":2}"),
                Conditions.ifMatch(created.etag()));
        assertThat(replaced.etag()).isNotEqualTo(created.etag());
        assertThat(doc(replaced).get("_rid")).isEqualTo(d.get("_rid"));
        assertThat(replaced.lsn()).isGreaterThan(created.lsn());
        assertStatus(() -> items().replace(pk("[\"a\"]"), "1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":3}"),
                Conditions.ifMatch(created.etag())), 412, 0);
        assertStatus(() -> items().replace(pk("[\"a\"]"), "nope", bytes("{\"id\":\"nope\",\"pk\":\"a\"}"),
                Conditions.NONE), 404, 0);

        assertThat(items().upsert(pk("[\"a\"]"), bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":4}"), Conditions.NONE).status())
                .isEqualTo(200);
        assertThat(items().upsert(pk("[\"a\"]"), bytes("{\"id\":\"2\",\"pk\":\"a\"}"), Conditions.NONE).status())
                .isEqualTo(201);
        assertThat(doc(items().read(pk("[\"a\"]"), "1", Conditions.NONE)).get("n").asInt()).isEqualTo(4);

        assertStatus(() -> items().delete(pk("[\"a\"]"), "1", Conditions.ifMatch(created.etag())), 412, 0);
        assertThat(items().delete(pk("[\"a\"]"), "1", Conditions.NONE).status()).isEqualTo(204);
        assertStatus(() -> items().read(pk("[\"a\"]"), "1", Conditions.NONE), 404, 0);
        assertStatus(() -> items().delete(pk("[\"a\"]"), "1", Conditions.NONE), 404, 0);
    }

    @Test
    void systemPropertiesInTheBodyAreReplaced() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult r = items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"_rid\":\"x\",\"_etag\":\"y\",\"_ts\":1}"),
                Conditions.NONE);
        JsonNode d = doc(r);
        assertThat(d.get("_rid").asText()).isNotEqualTo("x");
        assertThat(d.get("_etag").asText()).isEqualTo(r.etag());
        assertThat(d.get("_ts").asLong()).isNotEqualTo(1);
    }

    @Test
    void theClientsBytesAreStoredAsSentWithTheSystemPropertiesAppended() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        String sent = "{ \"id\" : \"1\", \"pk\":\"a\",  \"price\": 1.50, \"name\": \"caf\\u00e9\" }\n";
        ItemResult r = items().create(null, bytes(sent), Conditions.NONE);
        String stored = new String(r.item().json(), StandardCharsets.UTF_8);
        assertThat(stored).startsWith(sent.substring(0, sent.lastIndexOf('}')));
        JsonNode d = Json.parse(stored, "t");
        assertThat(d.get("_etag").asText()).isEqualTo(r.etag());
        assertThat(d.get("name").asText()).isEqualTo("caf\u00e9");
        assertThat(d.get("price").decimalValue()).isEqualByComparingTo("1.50");
        JsonNode empty = Json.parse(new String(items().create(null, bytes("{\"id\":\"2\",\"pk\":\"a\"}"),
                Conditions.NONE).item().json(), StandardCharsets.UTF_8), "t");
        assertThat(empty.get("_ts").asLong()).isEqualTo(clock.millis() / 1000);
    }

    @Test
    void keysOfEveryShapeRoundTrip() {
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        engine.createContainer("db", json("{\"id\":\"byId\",\"partitionKey\":{\"paths\":[\"/id\"]}}"), Throughput.NONE, 0);
        engine.createContainer("db", json("{\"id\":\"h2\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\"],\"kind\":\"MultiHash\"}}"),
                Throughput.NONE, 0);
        engine.createContainer("db", json("{\"id\":\"h3\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\",\"/s\"],\"kind\":\"MultiHash\",\"version\":2}}"),
                Throughput.NONE, 0);
        engine.createContainer("db", json("{\"id\":\"nested\",\"partitionKey\":{\"paths\":[\"/a/b\"],\"version\":1}}"),
                Throughput.NONE, 0);
        engine.items("db", "byId").create(null, bytes("{\"id\":\"x\"}"), Conditions.NONE);
        assertThat(engine.items("db", "byId").read(pk("[\"x\"]"), "x", Conditions.NONE).status()).isEqualTo(200);
        engine.items("db", "h2").create(null, bytes("{\"id\":\"x\",\"t\":\"t1\",\"u\":5}"), Conditions.NONE);
        assertThat(engine.items("db", "h2").read(pk("[\"t1\",5.0]"), "x", Conditions.NONE).status()).isEqualTo(200);
        engine.items("db", "h3").create(pk("[\"t1\",\"u1\",true]"), bytes("{\"id\":\"x\",\"t\":\"t1\",\"u\":\"u1\",\"s\":true}"),
                Conditions.NONE);
        assertThat(engine.items("db", "h3").read(pk("[\"t1\",\"u1\",true]"), "x", Conditions.NONE).status()).isEqualTo(200);
        engine.items("db", "nested").create(null, bytes("{\"id\":\"x\",\"a\":{\"b\":null}}"), Conditions.NONE);
        assertThat(engine.items("db", "nested").read(pk("[null]"), "x", Conditions.NONE).status()).isEqualTo(200);
        // a missing key value is the "none" key, read back with [{}]
        engine.items("db", "nested").create(null, bytes("{\"id\":\"y\"}"), Conditions.NONE);
        assertThat(engine.items("db", "nested").read(pk("[{}]"), "y", Conditions.NONE).status()).isEqualTo(200);
        assertStatus(() -> engine.items("db", "nested").read(pk("[null]"), "y", Conditions.NONE), 404, 0);
    }

    @Test
    void badItemsAreRejectedAndNothingIsWritten() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        engine.createContainer("db", json("{\"id\":\"h3\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\",\"/s\"],\"kind\":\"MultiHash\"}}"),
                Throughput.NONE, 0);
        Items it = items();
        assertStatus(() -> it.create(null, bytes("{\"id\":\"1\",\"pk\":"), Conditions.NONE), 400, 0);
        assertStatus(() -> it.create(null, bytes("[1,2]"), Conditions.NONE), 400, 0);
        assertStatus(() -> it.create(null, bytes("\"text\""), Conditions.NONE), 400, 0);
        assertStatus(() -> it.create(null, bytes(""), Conditions.NONE), 400, 0);
        assertStatus(() -> it.create(null, bytes("{\"pk\":\"a\"}"), Conditions.NONE), 400, 0);
        assertStatus(() -> it.create(null, bytes("{\"id\":7,\"pk\":\"a\"}"), Conditions.NONE), 400, 0);
        for (String bad : List.of("a/b", "a\\\\b", "a#b", "a?b", "")) {
            assertStatus(() -> it.create(null, bytes("{\"id\":\"" + bad + "\",\"pk\":\"a\"}"), Conditions.NONE), 400, 0);
        }
        assertStatus(() -> it.create(null, bytes("{\"id\":\"" + "x".repeat(1024) + "\",\"pk\":\"a\"}"), Conditions.NONE),
                400, 0);
        assertStatus(() -> it.create(null, bytes("{\"id\":\"1\",\"pk\":\"" + "p".repeat(2049) + "\"}"), Conditions.NONE),
                400, 0);
        assertStatus(() -> it.create(pk("[\"b\"]"), bytes("{\"id\":\"1\",\"pk\":\"a\"}"), Conditions.NONE), 400,
                SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> engine.items("db", "h3").create(pk("[\"t\",\"u\"]"), bytes("{\"id\":\"1\",\"t\":\"t\",\"u\":\"u\"}"),
                Conditions.NONE), 400, SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> engine.items("db", "h3").read(pk("[\"t\",\"u\"]"), "1", Conditions.NONE), 400,
                SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> it.read(null, "1", Conditions.NONE), 400, 0);
        String big = "{\"id\":\"big\",\"pk\":\"a\",\"blob\":\"" + "z".repeat(2 * 1024 * 1024) + "\"}";
        assertStatus(() -> it.create(null, bytes(big), Conditions.NONE), 413, 0);
        String deep = "{\"id\":\"deep\",\"pk\":\"a\",\"x\":" + "[".repeat(130) + "]".repeat(130) + "}";
        assertStatus(() -> it.create(null, bytes(deep), Conditions.NONE), 400, 0);
        assertThat(countItems(c)).isZero();
        assertThat(changeLog(c)).isEmpty();
    }

    @Test
    void errorMessagesNeverEchoValues() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        String secret = "s3cr3t-value";
        List<Runnable> attempts = List.of(
                () -> items().create(pk("[\"" + secret + "\"]"), bytes("{\"id\":\"1\",\"pk\":\"other\"}"), Conditions.NONE),
                () -> items().create(null, bytes("{\"id\":\"" + secret + "/x\",\"pk\":\"a\"}"), Conditions.NONE),
                () -> items().read(pk("[\"" + secret + "\"]"), secret, Conditions.NONE),
                () -> PartitionKeyValue.fromHeader("[\"" + secret + "\""));
        for (Runnable r : attempts) {
            assertThatThrownBy(r::run).isInstanceOf(ServiceException.class).message().doesNotContain(secret);
        }
    }

    // ---- patch, batch, bulk, read-many

    @Test
    void patchAppliesEveryOperationType() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"arr\":[1,2],\"o\":{\"k\":\"v\"},\"s\":\"a\",\"f\":1,\"n\":10}"),
                Conditions.NONE);
        String ops = """
                {"operations":[
                 {"op":"add","path":"/added","value":"new"},
                 {"op":"add","path":"/arr/1","value":99},
                 {"op":"add","path":"/arr/-","value":100},
                 {"op":"set","path":"/o/k2","value":true},
                 {"op":"replace","path":"/s","value":"b"},
                 {"op":"remove","path":"/f","value":null},
                 {"op":"incr","path":"/n","value":5},
                 {"op":"incr","path":"/n2","value":2.5},
                 {"op":"move","path":"/movedK","from":"/o/k"}]}""";
        JsonNode d = doc(items().patch(pk("[\"a\"]"), "1", bytes(ops), Conditions.NONE));
        assertThat(d.get("added").asText()).isEqualTo("new");
        assertThat(d.get("arr").toString()).isEqualTo("[1,99,2,100]");
        assertThat(d.at("/o/k2").asBoolean()).isTrue();
        assertThat(d.get("s").asText()).isEqualTo("b");
        assertThat(d.has("f")).isFalse();
        assertThat(d.get("n").isIntegralNumber()).isTrue();
        assertThat(d.get("n").asLong()).isEqualTo(15);
        assertThat(d.get("n2").asDouble()).isEqualTo(2.5);
        assertThat(d.get("movedK").asText()).isEqualTo("v");
        assertThat(d.at("/o/k").isMissingNode()).isTrue();
    }

    @Test
    void badPatchesAreRejected() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult created = items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"s\":\"x\"}"), Conditions.NONE);
        StringBuilder eleven = new StringBuilder("{\"operations\":[");
        for (int i = 0; i < 11; i++) {
            eleven.append(i == 0 ? "" : ",").append("{\"op\":\"set\",\"path\":\"/p").append(i).append("\",\"value\":1}");
        }
        eleven.append("]}");
        List<String> bad = List.of(eleven.toString(),
                "{\"operations\":[{\"op\":\"set\",\"path\":\"/id\",\"value\":\"2\"}]}",
                "{\"operations\":[{\"op\":\"set\",\"path\":\"/pk\",\"value\":\"b\"}]}",
                "{\"operations\":[{\"op\":\"remove\",\"path\":\"/missing\"}]}",
                "{\"operations\":[{\"op\":\"replace\",\"path\":\"/missing\",\"value\":1}]}",
                "{\"operations\":[{\"op\":\"incr\",\"path\":\"/s\",\"value\":1}]}",
                "{\"operations\":[{\"op\":\"explode\",\"path\":\"/s\"}]}",
                "{\"operations\":[]}", "[]");
        for (String b : bad) {
            assertStatus(() -> items().patch(pk("[\"a\"]"), "1", bytes(b), Conditions.NONE), 400, 0);
        }
        String ok = "{\"operations\":[{\"op\":\"set\",\"path\":\"/s\",\"value\":\"y\"}]";
        assertStatus(() -> items().patch(pk("[\"a\"]"), "1", bytes(ok + ",\"condition\":\"FROM c WHERE false\"}"),
                Conditions.NONE), 412, 0);
        assertStatus(() -> items().patch(pk("[\"a\"]"), "nope", bytes(ok + "}"), Conditions.NONE), 404, 0);
        assertStatus(() -> items().patch(pk("[\"a\"]"), "1", bytes(ok + "}"), Conditions.ifMatch("\"stale\"")), 412, 0);
        assertThat(items().read(pk("[\"a\"]"), "1", Conditions.NONE).etag()).isEqualTo(created.etag());
        assertThat(items().patch(pk("[\"a\"]"), "1", bytes(ok + ",\"condition\":\"FROM c WHERE true\"}"),
                Conditions.ifMatch(created.etag())).status()).isEqualTo(200);
    }

    @Test
    void transactionalBatchCommitsAllOrNothing() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(null, bytes("{\"id\":\"a0\",\"pk\":\"P\"}"), Conditions.NONE);
        BatchResult ok = items().batch(pk("[\"P\"]"), bytes("""
                [{"operationType":"Create","resourceBody":{"id":"a1","pk":"P"}},
                 {"operationType":"Upsert","resourceBody":{"id":"a2","pk":"P"}},
                 {"operationType":"Read","id":"a0"},
                 {"operationType":"Replace","id":"a0","resourceBody":{"id":"a0","pk":"P","v":1}},
                 {"operationType":"Patch","id":"a1","resourceBody":{"operations":[{"op":"set","path":"/x","value":5}]}},
                 {"operationType":"Delete","id":"a2"}]"""));
        assertThat(ok.allSucceeded()).isTrue();
        assertThat(ok.results()).extracting(BatchResult.OpResult::status).containsExactly(201, 201, 200, 200, 200, 204);
        assertThat(countItems(c)).isEqualTo(2);

        long logBefore = changeLog(c).size();
        BatchResult failed = items().batch(pk("[\"P\"]"), bytes("""
                [{"operationType":"Create","resourceBody":{"id":"b1","pk":"P"}},
                 {"operationType":"Delete","id":"a0"},
                 {"operationType":"Create","resourceBody":{"id":"a1","pk":"P"}},
                 {"operationType":"Create","resourceBody":{"id":"b2","pk":"P"}}]"""));
        assertThat(failed.allSucceeded()).isFalse();
        assertThat(failed.results()).extracting(BatchResult.OpResult::status).containsExactly(424, 424, 409, 424);
        assertThat(countItems(c)).isEqualTo(2);
        assertThat(items().read(pk("[\"P\"]"), "a0", Conditions.NONE).status()).isEqualTo(200);
        assertThat(changeLog(c)).hasSize((int) logBefore);
        // the failed batch gave its LSNs back: the next write continues the sequence
        long next = items().create(null, bytes("{\"id\":\"z\",\"pk\":\"P\"}"), Conditions.NONE).lsn();
        assertThat(next).isEqualTo(changeLog(c).get((int) logBefore - 1).lsn() + 1);

        StringBuilder tooMany = new StringBuilder("[");
        for (int i = 0; i < 101; i++) {
            tooMany.append(i == 0 ? "" : ",").append("{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"m")
                    .append(i).append("\",\"pk\":\"P\"}}");
        }
        assertStatus(() -> items().batch(pk("[\"P\"]"), bytes(tooMany + "]")), 400, 0);
        BatchResult otherKey = items().batch(pk("[\"P\"]"), bytes(
                "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"q\",\"pk\":\"Q\"}}]"));
        assertThat(otherKey.results().get(0).status()).isEqualTo(400);
        assertThat(otherKey.results().get(0).subStatus()).isEqualTo(SubStatus.PARTITION_KEY_MISMATCH);
    }

    @Test
    void bulkRunsEachOperationOnItsOwn() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        BatchResult r = items().bulk(bytes("""
                [{"operationType":"Create","partitionKey":"[\\"a\\"]","resourceBody":{"id":"1","pk":"a"}},
                 {"operationType":"Create","partitionKey":"[\\"b\\"]","resourceBody":{"id":"1","pk":"b"}},
                 {"operationType":"Create","partitionKey":"[\\"a\\"]","resourceBody":{"id":"1","pk":"a"}},
                 {"operationType":"Upsert","partitionKey":"[\\"c\\"]","resourceBody":{"id":"2","pk":"c"}}]"""));
        assertThat(r.results()).extracting(BatchResult.OpResult::status).containsExactly(201, 201, 409, 201);
        assertThat(countItems(c)).isEqualTo(3);
    }

    @Test
    void readManyReturnsTheItemsThatExist() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        for (int i = 0; i < 5; i++) {
            items().create(null, bytes("{\"id\":\"" + i + "\",\"pk\":\"p" + i + "\"}"), Conditions.NONE);
        }
        List<StoredItem> found = items().readMany(List.of(new ItemIdentity("0", pk("[\"p0\"]")),
                new ItemIdentity("3", pk("[\"p3\"]")), new ItemIdentity("3", pk("[\"p4\"]")),
                new ItemIdentity("9", pk("[\"p9\"]"))));
        assertThat(found).extracting(s -> Json.parse(s.json(), "t").get("id").asText()).containsExactly("0", "3");
    }

    // ---- unique keys, TTL, change log, LSNs

    @Test
    void uniqueKeysHoldPerLogicalPartition() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},"
                + "\"uniqueKeyPolicy\":{\"uniqueKeys\":[{\"paths\":[\"/email\"]}]}}");
        items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"x@y\"}"), Conditions.NONE);
        assertStatus(() -> items().create(null, bytes("{\"id\":\"2\",\"pk\":\"a\",\"email\":\"x@y\"}"), Conditions.NONE),
                409, 0);
        assertThat(items().create(null, bytes("{\"id\":\"2\",\"pk\":\"b\",\"email\":\"x@y\"}"), Conditions.NONE).status())
                .isEqualTo(201);
        // replacing an item keeps its own value; changing it frees the old one
        items().replace(pk("[\"a\"]"), "1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"x@y\",\"v\":2}"), Conditions.NONE);
        items().replace(pk("[\"a\"]"), "1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"other\"}"), Conditions.NONE);
        assertThat(items().create(null, bytes("{\"id\":\"3\",\"pk\":\"a\",\"email\":\"x@y\"}"), Conditions.NONE).status())
                .isEqualTo(201);
        items().delete(pk("[\"a\"]"), "3", Conditions.NONE);
        assertThat(items().create(null, bytes("{\"id\":\"4\",\"pk\":\"a\",\"email\":\"x@y\"}"), Conditions.NONE).status())
                .isEqualTo(201);
    }

    @Test
    void ttlHidesExpiredItemsAtOnceAndTheSweeperRemovesThem() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":10}");
        items().create(null, bytes("{\"id\":\"default\",\"pk\":\"a\"}"), Conditions.NONE);
        items().create(null, bytes("{\"id\":\"never\",\"pk\":\"a\",\"ttl\":-1}"), Conditions.NONE);
        items().create(null, bytes("{\"id\":\"long\",\"pk\":\"a\",\"ttl\":100}"), Conditions.NONE);
        assertStatus(() -> items().create(null, bytes("{\"id\":\"bad\",\"pk\":\"a\",\"ttl\":0}"), Conditions.NONE), 400, 0);
        clock.advance(Duration.ofSeconds(9));
        assertThat(items().read(pk("[\"a\"]"), "default", Conditions.NONE).status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertStatus(() -> items().read(pk("[\"a\"]"), "default", Conditions.NONE), 404, 0);
        assertThat(countItems(c)).isEqualTo(3);
        assertThat(engine.sweepExpired()).isEqualTo(1);
        assertThat(countItems(c)).isEqualTo(2);
        ChangeRecord last = changeLog(c).get(changeLog(c).size() - 1);
        assertThat(last.operation()).isEqualTo(ChangeRecord.Operation.TTL_EXPIRE);
        assertThat(last.id()).isEqualTo("default");
        // an expired id can be created again before the sweeper ran
        clock.advance(Duration.ofSeconds(100));
        assertThat(items().create(null, bytes("{\"id\":\"long\",\"pk\":\"a\"}"), Conditions.NONE).status()).isEqualTo(201);
        assertThat(items().read(pk("[\"a\"]"), "never", Conditions.NONE).status()).isEqualTo(200);
    }

    @Test
    void itemTtlIsIgnoredWhileContainerTtlIsOffAndAppliesWhenTurnedOn() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"ttl\":5}"), Conditions.NONE);
        clock.advance(Duration.ofSeconds(6));
        assertThat(items().read(pk("[\"a\"]"), "1", Conditions.NONE).status()).isEqualTo(200);
        engine.replaceContainer("db", "c", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":-1}"));
        assertStatus(() -> items().read(pk("[\"a\"]"), "1", Conditions.NONE), 404, 0);
        engine.replaceContainer("db", "c", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"));
        assertThat(items().read(pk("[\"a\"]"), "1", Conditions.NONE).status()).isEqualTo(200);
    }

    @Test
    void changeLogKeepsOperationsImagesAndLsnOrder() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult a = items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"v\":1}"), Conditions.NONE);
        ItemResult b = items().replace(pk("[\"a\"]"), "1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"v\":2}"), Conditions.NONE);
        items().delete(pk("[\"a\"]"), "1", Conditions.NONE);
        List<ChangeRecord> log = changeLog(c);
        assertThat(log).extracting(ChangeRecord::operation).containsExactly(ChangeRecord.Operation.CREATE,
                ChangeRecord.Operation.REPLACE, ChangeRecord.Operation.DELETE);
        assertThat(log).extracting(ChangeRecord::lsn).isSorted().doesNotHaveDuplicates();
        assertThat(log.get(0).newImage()).isEqualTo(a.item().json());
        assertThat(log.get(1).previousImage()).isEqualTo(a.item().json());
        assertThat(log.get(1).previousLsn()).isEqualTo(a.lsn());
        assertThat(log.get(2).previousImage()).isEqualTo(b.item().json());
        assertThat(log.get(2).newImage()).isNull();
        assertThat(log.get(2).epk()).isEqualTo(EffectivePartitionKey.of(c.partitionKey(), pk("[\"a\"]")));
    }

    @Test
    void changeLogRetentionKeepsEachLiveItemsLatestVersion() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(null, bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":1}"), Conditions.NONE);
        items().replace(pk("[\"p\"]"), "a", bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":2}"), Conditions.NONE);
        ItemResult latest = items().replace(pk("[\"p\"]"), "a", bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":3}"),
                Conditions.NONE);
        items().create(null, bytes("{\"id\":\"b\",\"pk\":\"p\"}"), Conditions.NONE);
        items().delete(pk("[\"p\"]"), "b", Conditions.NONE);
        assertThat(engine.pruneChangeLog()).isZero();
        clock.advance(Limits.DEFAULTS.changeLogRetention().plusSeconds(1));
        ItemResult recent = items().create(null, bytes("{\"id\":\"c\",\"pk\":\"p\"}"), Conditions.NONE);
        assertThat(engine.pruneChangeLog()).isEqualTo(4);
        assertThat(changeLog(c)).extracting(ChangeRecord::lsn).containsExactly(latest.lsn(), recent.lsn());
    }

    @Test
    void logicalPartitionSizeIsLimited() {
        engine.close();
        engine = Engine.open(openStore(tmp.resolve("small")), clock,
                Limits.DEFAULTS.toBuilder().maxLogicalPartitionBytes(2_000).build(), EngineContractTest::testCondition);
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        String pad = "x".repeat(600);
        items().create(null, bytes("{\"id\":\"1\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), Conditions.NONE);
        items().create(null, bytes("{\"id\":\"2\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), Conditions.NONE);
        assertStatus(() -> items().create(null, bytes("{\"id\":\"3\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), Conditions.NONE),
                403, SubStatus.LOGICAL_PARTITION_FULL);
        assertThat(items().create(null, bytes("{\"id\":\"3\",\"pk\":\"b\",\"p\":\"" + pad + "\"}"), Conditions.NONE)
                .status()).isEqualTo(201);
        items().delete(pk("[\"a\"]"), "1", Conditions.NONE);
        assertThat(items().create(null, bytes("{\"id\":\"3\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), Conditions.NONE)
                .status()).isEqualTo(201);
    }

    // ---- physical partitions

    @Test
    void itemsLandInTheRangeOwningTheirEpkAndSplitsKeepThemReadable() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        for (int i = 0; i < 200; i++) {
            ItemResult r = items().create(null, bytes("{\"id\":\"i" + i + "\",\"pk\":\"k" + i + "\"}"), Conditions.NONE);
            assertThat(r.rangeId()).isEqualTo("0");
        }
        ContainerInfo split = engine.split(c, "0");
        assertThat(split.partitions().partitions()).extracting(PhysicalPartition::id).containsExactly("1", "2");
        assertThat(split.partitions().partitions()).allSatisfy(p -> assertThat(p.parents()).containsExactly("0"));
        int[] perRange = new int[3];
        for (int i = 0; i < 200; i++) {
            ItemResult r = items().read(pk("[\"k" + i + "\"]"), "i" + i, Conditions.NONE);
            String epk = EffectivePartitionKey.of(c.partitionKey(), pk("[\"k" + i + "\"]"));
            assertThat(split.partitions().byId(r.rangeId()).contains(epk)).isTrue();
            perRange[Integer.parseInt(r.rangeId())]++;
        }
        // the split point is the median EPK, so the halves are even
        assertThat(perRange[1]).isEqualTo(100);
        assertThat(perRange[2]).isEqualTo(100);
        assertStatus(() -> split.partitions().byId("0"), 410, SubStatus.PARTITION_KEY_RANGE_GONE);
        ContainerInfo again = engine.split(split, "2");
        assertThat(again.partitions().partitions()).extracting(PhysicalPartition::id).containsExactly("1", "3", "4");
        assertThat(again.partitions().partitions().get(2).parents()).containsExactly("0", "2");
    }

    @Test
    void anEmptyRangeSplitsAtTheMiddleOfItsKeySpace() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ContainerInfo split = engine.split(c, "0");
        PhysicalPartition left = split.partitions().partitions().get(0);
        assertThat(left.maxExclusive()).isNotEmpty().isLessThan("FF");
    }
}
