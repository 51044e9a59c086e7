package dev.partita.core;

import dev.partita.core.request.RequestOptions;
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
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.item.BatchResult;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
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

    ContainerHandle items() {
        return engine.container("db", "c");
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
        assertThat(shown.at("/partitionKey/version").asInt()).isEqualTo(1); // none sent: V1, as the service makes it
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
            items().create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 5) + "\"}"), RequestOptions.NONE);
        }
        assertThat(countItems(c)).isEqualTo(50);
        engine.deleteContainer("db", "c");
        assertThat(countItems(c)).isZero();
        assertThat(changeLog(c)).isEmpty();
        assertStatus(() -> engine.container("db", "c"), 404, 0);
    }

    // ---- point operations

    @Test
    void createReadReplaceUpsertDelete() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult created = items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":1}"), RequestOptions.of(pk("[\"a\"]")));
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

        ItemResult read = items().read("1", RequestOptions.of(pk("[\"a\"]")));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.item().json()).isEqualTo(created.item().json());
        assertThat(items().read("1", RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifNoneMatch(created.etag()))).status()).isEqualTo(304);

        assertStatus(() -> items().create(bytes("{\"id\":\"1\",\"pk\":\"a\"}"), RequestOptions.of(pk("[\"a\"]"))), 409, 0);
        // the same id in another logical partition is another item
        assertThat(items().create(bytes("{\"id\":\"1\",\"pk\":\"b\"}"), RequestOptions.of(pk("[\"b\"]"))).status())
                .isEqualTo(201);

        ItemResult replaced = items().replace("1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":2}"), RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifMatch(created.etag())));
        assertThat(replaced.etag()).isNotEqualTo(created.etag());
        assertThat(doc(replaced).get("_rid")).isEqualTo(d.get("_rid"));
        assertThat(replaced.lsn()).isGreaterThan(created.lsn());
        assertStatus(() -> items().replace("1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":3}"), RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifMatch(created.etag()))), 412, 0);
        assertStatus(() -> items().replace("nope", bytes("{\"id\":\"nope\",\"pk\":\"a\"}"), RequestOptions.of(pk("[\"a\"]"))), 404, 0);

        assertThat(items().upsert(bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":4}"), RequestOptions.of(pk("[\"a\"]"))).status())
                .isEqualTo(200);
        assertThat(items().upsert(bytes("{\"id\":\"2\",\"pk\":\"a\"}"), RequestOptions.of(pk("[\"a\"]"))).status())
                .isEqualTo(201);
        assertThat(doc(items().read("1", RequestOptions.of(pk("[\"a\"]")))).get("n").asInt()).isEqualTo(4);

        assertStatus(() -> items().delete("1", RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifMatch(created.etag()))), 412, 0);
        assertThat(items().delete("1", RequestOptions.of(pk("[\"a\"]"))).status()).isEqualTo(204);
        assertStatus(() -> items().read("1", RequestOptions.of(pk("[\"a\"]"))), 404, 0);
        assertStatus(() -> items().delete("1", RequestOptions.of(pk("[\"a\"]"))), 404, 0);
    }

    @Test
    void systemPropertiesInTheBodyAreReplaced() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult r = items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"_rid\":\"x\",\"_etag\":\"y\",\"_ts\":1}"), RequestOptions.NONE);
        JsonNode d = doc(r);
        assertThat(d.get("_rid").asText()).isNotEqualTo("x");
        assertThat(d.get("_etag").asText()).isEqualTo(r.etag());
        assertThat(d.get("_ts").asLong()).isNotEqualTo(1);
    }

    @Test
    void theClientsBytesAreStoredAsSentWithTheSystemPropertiesAppended() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        String sent = "{ \"id\" : \"1\", \"pk\":\"a\",  \"price\": 1.50, \"name\": \"caf\\u00e9\" }\n";
        ItemResult r = items().create(bytes(sent), RequestOptions.NONE);
        String stored = new String(r.item().json(), StandardCharsets.UTF_8);
        assertThat(stored).startsWith(sent.substring(0, sent.lastIndexOf('}')));
        JsonNode d = Json.parse(stored, "t");
        assertThat(d.get("_etag").asText()).isEqualTo(r.etag());
        assertThat(d.get("name").asText()).isEqualTo("caf\u00e9");
        assertThat(d.get("price").decimalValue()).isEqualByComparingTo("1.50");
        JsonNode empty = Json.parse(new String(items().create(bytes("{\"id\":\"2\",\"pk\":\"a\"}"), RequestOptions.NONE).item().json(), StandardCharsets.UTF_8), "t");
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
        engine.container("db", "byId").create(bytes("{\"id\":\"x\"}"), RequestOptions.NONE);
        assertThat(engine.container("db", "byId").read("x", RequestOptions.of(pk("[\"x\"]"))).status()).isEqualTo(200);
        engine.container("db", "h2").create(bytes("{\"id\":\"x\",\"t\":\"t1\",\"u\":5}"), RequestOptions.NONE);
        assertThat(engine.container("db", "h2").read("x", RequestOptions.of(pk("[\"t1\",5.0]"))).status()).isEqualTo(200);
        engine.container("db", "h3").create(bytes("{\"id\":\"x\",\"t\":\"t1\",\"u\":\"u1\",\"s\":true}"), RequestOptions.of(pk("[\"t1\",\"u1\",true]")));
        assertThat(engine.container("db", "h3").read("x", RequestOptions.of(pk("[\"t1\",\"u1\",true]"))).status()).isEqualTo(200);
        engine.container("db", "nested").create(bytes("{\"id\":\"x\",\"a\":{\"b\":null}}"), RequestOptions.NONE);
        assertThat(engine.container("db", "nested").read("x", RequestOptions.of(pk("[null]"))).status()).isEqualTo(200);
        // a missing key value is the "none" key, read back with [{}]
        engine.container("db", "nested").create(bytes("{\"id\":\"y\"}"), RequestOptions.NONE);
        assertThat(engine.container("db", "nested").read("y", RequestOptions.of(pk("[{}]"))).status()).isEqualTo(200);
        assertStatus(() -> engine.container("db", "nested").read("y", RequestOptions.of(pk("[null]"))), 404, 0);
    }

    /**
     * A hash V1 container takes keys longer than the 101 bytes it hashes (the JS SDK's client-side encryption stores
     * ~130-byte encrypted keys in one). Keys that share those bytes are one logical partition, as the service
     * documents ("large-partition-keys": "considered as the same logical partition"): one id per pair of them.
     */
    @Test
    void aHashV1ContainerTakesKeysLongerThanItHashes() {
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        engine.createContainer("db", json("{\"id\":\"v1\",\"partitionKey\":{\"paths\":[\"/pk\"],\"version\":1}}"),
                Throughput.NONE, 0);
        ContainerHandle v1 = engine.container("db", "v1");
        String prefix = "k".repeat(140);
        v1.create(bytes("{\"id\":\"x\",\"pk\":\"" + prefix + "1\"}"), RequestOptions.NONE);
        assertThat(doc(v1.read("x", RequestOptions.of(pk("[\"" + prefix + "1\"]")))).get("pk").asText())
                .isEqualTo(prefix + "1");
        assertStatus(() -> v1.create(bytes("{\"id\":\"x\",\"pk\":\"" + prefix + "2\"}"), RequestOptions.NONE),
                409, 0);
        v1.create(bytes("{\"id\":\"z\",\"pk\":\"" + prefix + "2\"}"), RequestOptions.NONE);
        assertStatus(() -> v1.create(bytes("{\"id\":\"y\",\"pk\":\"" + "p".repeat(2049) + "\"}"),
                RequestOptions.NONE), 400, 0);
    }

    @Test
    void badItemsAreRejectedAndNothingIsWritten() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        engine.createContainer("db", json("{\"id\":\"h3\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\",\"/s\"],\"kind\":\"MultiHash\"}}"),
                Throughput.NONE, 0);
        ContainerHandle it = items();
        assertStatus(() -> it.create(bytes("{\"id\":\"1\",\"pk\":"), RequestOptions.NONE), 400, 0);
        assertStatus(() -> it.create(bytes("[1,2]"), RequestOptions.NONE), 400, 0);
        assertStatus(() -> it.create(bytes("\"text\""), RequestOptions.NONE), 400, 0);
        assertStatus(() -> it.create(bytes(""), RequestOptions.NONE), 400, 0);
        assertStatus(() -> it.create(bytes("{\"pk\":\"a\"}"), RequestOptions.NONE), 400, 0);
        assertStatus(() -> it.create(bytes("{\"id\":7,\"pk\":\"a\"}"), RequestOptions.NONE), 400, 0);
        for (String bad : List.of("a\\\\b", "")) {
            assertStatus(() -> it.create(bytes("{\"id\":\"" + bad + "\",\"pk\":\"a\"}"), RequestOptions.NONE), 400, 0);
        }
        assertStatus(() -> it.create(bytes("{\"id\":\"" + "x".repeat(1024) + "\",\"pk\":\"a\"}"), RequestOptions.NONE),
                400, 0);
        assertStatus(() -> it.create(bytes("{\"id\":\"1\",\"pk\":\"" + "p".repeat(2049) + "\"}"), RequestOptions.NONE),
                400, 0);
        assertStatus(() -> it.create(bytes("{\"id\":\"1\",\"pk\":\"a\"}"), RequestOptions.of(pk("[\"b\"]"))), 400,
                SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> engine.container("db", "h3").create(bytes("{\"id\":\"1\",\"t\":\"t\",\"u\":\"u\"}"), RequestOptions.of(pk("[\"t\",\"u\"]"))), 400, SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> engine.container("db", "h3").read("1", RequestOptions.of(pk("[\"t\",\"u\"]"))), 400,
                SubStatus.PARTITION_KEY_MISMATCH);
        assertStatus(() -> it.read("1", RequestOptions.NONE), 400, 0);
        String big = "{\"id\":\"big\",\"pk\":\"a\",\"blob\":\"" + "z".repeat(2 * 1024 * 1024) + "\"}";
        assertStatus(() -> it.create(bytes(big), RequestOptions.NONE), 413, 0);
        String deep = "{\"id\":\"deep\",\"pk\":\"a\",\"x\":" + "[".repeat(130) + "]".repeat(130) + "}";
        assertStatus(() -> it.create(bytes(deep), RequestOptions.NONE), 400, 0);
        assertThat(countItems(c)).isZero();
        assertThat(changeLog(c)).isEmpty();
    }

    @Test
    void errorMessagesNeverEchoValues() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        String secret = "s3cr3t-value";
        List<Runnable> attempts = List.of(
                () -> items().create(bytes("{\"id\":\"1\",\"pk\":\"other\"}"), RequestOptions.of(pk("[\"" + secret + "\"]"))),
                () -> items().create(bytes("{\"id\":\"" + secret + "\\\\x\",\"pk\":\"a\"}"), RequestOptions.NONE),
                () -> items().read(secret, RequestOptions.of(pk("[\"" + secret + "\"]"))),
                () -> PartitionKeyValue.fromHeader("[\"" + secret + "\""));
        for (Runnable r : attempts) {
            assertThatThrownBy(r::run).isInstanceOf(ServiceException.class).message().doesNotContain(secret);
        }
    }

    // ---- patch, batch, bulk, read-many

    @Test
    void patchAppliesEveryOperationType() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"arr\":[1,2],\"o\":{\"k\":\"v\"},\"s\":\"a\",\"f\":1,\"n\":10}"), RequestOptions.NONE);
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
        JsonNode d = doc(items().patch("1", bytes(ops), RequestOptions.of(pk("[\"a\"]"))));
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
        ItemResult created = items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"s\":\"x\"}"), RequestOptions.NONE);
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
            assertStatus(() -> items().patch("1", bytes(b), RequestOptions.of(pk("[\"a\"]"))), 400, 0);
        }
        String ok = "{\"operations\":[{\"op\":\"set\",\"path\":\"/s\",\"value\":\"y\"}]";
        assertStatus(() -> items().patch("1", bytes(ok + ",\"condition\":\"FROM c WHERE false\"}"), RequestOptions.of(pk("[\"a\"]"))), 412, 0);
        assertStatus(() -> items().patch("nope", bytes(ok + "}"), RequestOptions.of(pk("[\"a\"]"))), 404, 0);
        assertStatus(() -> items().patch("1", bytes(ok + "}"), RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifMatch("\"stale\""))), 412, 0);
        assertThat(items().read("1", RequestOptions.of(pk("[\"a\"]"))).etag()).isEqualTo(created.etag());
        assertThat(items().patch("1", bytes(ok + ",\"condition\":\"FROM c WHERE true\"}"), RequestOptions.of(pk("[\"a\"]")).withConditions(Conditions.ifMatch(created.etag()))).status()).isEqualTo(200);
    }

    @Test
    void transactionalBatchCommitsAllOrNothing() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(bytes("{\"id\":\"a0\",\"pk\":\"P\"}"), RequestOptions.NONE);
        BatchResult ok = items().batch(bytes("""
                [{"operationType":"Create","resourceBody":{"id":"a1","pk":"P"}},
                 {"operationType":"Upsert","resourceBody":{"id":"a2","pk":"P"}},
                 {"operationType":"Read","id":"a0"},
                 {"operationType":"Replace","id":"a0","resourceBody":{"id":"a0","pk":"P","v":1}},
                 {"operationType":"Patch","id":"a1","resourceBody":{"operations":[{"op":"set","path":"/x","value":5}]}},
                 {"operationType":"Delete","id":"a2"}]"""), RequestOptions.of(pk("[\"P\"]")));
        assertThat(ok.allSucceeded()).isTrue();
        assertThat(ok.results()).extracting(BatchResult.OpResult::status).containsExactly(201, 201, 200, 200, 200, 204);
        assertThat(countItems(c)).isEqualTo(2);

        long logBefore = changeLog(c).size();
        BatchResult failed = items().batch(bytes("""
                [{"operationType":"Create","resourceBody":{"id":"b1","pk":"P"}},
                 {"operationType":"Delete","id":"a0"},
                 {"operationType":"Create","resourceBody":{"id":"a1","pk":"P"}},
                 {"operationType":"Create","resourceBody":{"id":"b2","pk":"P"}}]"""), RequestOptions.of(pk("[\"P\"]")));
        assertThat(failed.allSucceeded()).isFalse();
        assertThat(failed.results()).extracting(BatchResult.OpResult::status).containsExactly(424, 424, 409, 424);
        assertThat(countItems(c)).isEqualTo(2);
        assertThat(items().read("a0", RequestOptions.of(pk("[\"P\"]"))).status()).isEqualTo(200);
        assertThat(changeLog(c)).hasSize((int) logBefore);
        // the failed batch gave its LSNs back: the next write continues the sequence
        long next = items().create(bytes("{\"id\":\"z\",\"pk\":\"P\"}"), RequestOptions.NONE).lsn();
        assertThat(next).isEqualTo(changeLog(c).get((int) logBefore - 1).lsn() + 1);

        StringBuilder tooMany = new StringBuilder("[");
        for (int i = 0; i < 101; i++) {
            tooMany.append(i == 0 ? "" : ",").append("{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"m")
                    .append(i).append("\",\"pk\":\"P\"}}");
        }
        assertStatus(() -> items().batch(bytes(tooMany + "]"), RequestOptions.of(pk("[\"P\"]"))), 400, 0);
        BatchResult otherKey = items().batch(bytes(
                "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"q\",\"pk\":\"Q\"}}]"), RequestOptions.of(pk("[\"P\"]")));
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
                 {"operationType":"Upsert","partitionKey":"[\\"c\\"]","resourceBody":{"id":"2","pk":"c"}}]"""), RequestOptions.NONE);
        assertThat(r.results()).extracting(BatchResult.OpResult::status).containsExactly(201, 201, 409, 201);
        assertThat(countItems(c)).isEqualTo(3);
    }

    // ---- unique keys, TTL, change log, LSNs

    @Test
    void uniqueKeysHoldPerLogicalPartition() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},"
                + "\"uniqueKeyPolicy\":{\"uniqueKeys\":[{\"paths\":[\"/email\"]}]}}");
        items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"x@y\"}"), RequestOptions.NONE);
        assertStatus(() -> items().create(bytes("{\"id\":\"2\",\"pk\":\"a\",\"email\":\"x@y\"}"), RequestOptions.NONE),
                409, 0);
        assertThat(items().create(bytes("{\"id\":\"2\",\"pk\":\"b\",\"email\":\"x@y\"}"), RequestOptions.NONE).status())
                .isEqualTo(201);
        // replacing an item keeps its own value; changing it frees the old one
        items().replace("1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"x@y\",\"v\":2}"), RequestOptions.of(pk("[\"a\"]")));
        items().replace("1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"email\":\"other\"}"), RequestOptions.of(pk("[\"a\"]")));
        assertThat(items().create(bytes("{\"id\":\"3\",\"pk\":\"a\",\"email\":\"x@y\"}"), RequestOptions.NONE).status())
                .isEqualTo(201);
        items().delete("3", RequestOptions.of(pk("[\"a\"]")));
        assertThat(items().create(bytes("{\"id\":\"4\",\"pk\":\"a\",\"email\":\"x@y\"}"), RequestOptions.NONE).status())
                .isEqualTo(201);
    }

    @Test
    void usageTotalsTheSizeRecordsOfTheLogicalPartitions() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":-1}");
        for (int i = 0; i < 12; i++) {
            items().create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 4) + "\"}"), RequestOptions.NONE);
        }
        items().upsert(bytes("{\"id\":\"i0\",\"pk\":\"p0\",\"more\":\"" + "x".repeat(500) + "\"}"),
                RequestOptions.NONE);
        items().delete("i1", RequestOptions.of(pk("[\"p1\"]")));
        items().create(bytes("{\"id\":\"brief\",\"pk\":\"p9\",\"ttl\":5}"), RequestOptions.NONE);
        ContainerHandle.Usage usage = items().usage(RequestOptions.NONE);
        assertThat(usage.stored().items()).isEqualTo(12).isEqualTo(countItems(c));
        assertThat(usage.stored().bytes()).isEqualTo(storedBytes(c));
        assertThat(usage.stored().logicalPartitions()).isEqualTo(5);
        assertThat(usage.quotaBytes()).isEqualTo(Limits.DEFAULTS.maxPhysicalPartitionBytes());

        clock.advance(Duration.ofSeconds(5));
        assertThat(engine.sweepExpired()).isEqualTo(1);
        items().delete("i2", RequestOptions.of(pk("[\"p2\"]")));
        usage = items().usage(RequestOptions.NONE);
        assertThat(usage.stored().items()).isEqualTo(10).isEqualTo(countItems(c));
        assertThat(usage.stored().bytes()).isEqualTo(storedBytes(c));
        assertThat(usage.stored().logicalPartitions()).isEqualTo(4);
    }

    long storedBytes(ContainerInfo c) {
        byte[][] r = StoreKeys.itemRange(c.containerId(), "", "FF");
        long n = 0;
        try (Cursor cur = engine.store().scan(r[0], r[1])) {
            while (cur.next()) {
                n += cur.value().length;
            }
        }
        return n;
    }

    @Test
    void ttlHidesExpiredItemsAtOnceAndTheSweeperRemovesThem() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":10}");
        items().create(bytes("{\"id\":\"default\",\"pk\":\"a\"}"), RequestOptions.NONE);
        items().create(bytes("{\"id\":\"never\",\"pk\":\"a\",\"ttl\":-1}"), RequestOptions.NONE);
        items().create(bytes("{\"id\":\"long\",\"pk\":\"a\",\"ttl\":100}"), RequestOptions.NONE);
        assertStatus(() -> items().create(bytes("{\"id\":\"bad\",\"pk\":\"a\",\"ttl\":0}"), RequestOptions.NONE), 400, 0);
        clock.advance(Duration.ofSeconds(9));
        assertThat(items().read("default", RequestOptions.of(pk("[\"a\"]"))).status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(1));
        assertStatus(() -> items().read("default", RequestOptions.of(pk("[\"a\"]"))), 404, 0);
        assertThat(countItems(c)).isEqualTo(3);
        assertThat(engine.sweepExpired()).isEqualTo(1);
        assertThat(countItems(c)).isEqualTo(2);
        ChangeRecord last = changeLog(c).get(changeLog(c).size() - 1);
        assertThat(last.operation()).isEqualTo(ChangeRecord.Operation.TTL_EXPIRE);
        assertThat(last.id()).isEqualTo("default");
        // an expired id can be created again before the sweeper ran
        clock.advance(Duration.ofSeconds(100));
        assertThat(items().create(bytes("{\"id\":\"long\",\"pk\":\"a\"}"), RequestOptions.NONE).status()).isEqualTo(201);
        assertThat(items().read("never", RequestOptions.of(pk("[\"a\"]"))).status()).isEqualTo(200);
    }

    @Test
    void itemTtlIsIgnoredWhileContainerTtlIsOffAndAppliesWhenTurnedOn() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"ttl\":5}"), RequestOptions.NONE);
        clock.advance(Duration.ofSeconds(6));
        assertThat(items().read("1", RequestOptions.of(pk("[\"a\"]"))).status()).isEqualTo(200);
        engine.replaceContainer("db", "c", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":-1}"));
        assertStatus(() -> items().read("1", RequestOptions.of(pk("[\"a\"]"))), 404, 0);
        engine.replaceContainer("db", "c", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"));
        assertThat(items().read("1", RequestOptions.of(pk("[\"a\"]"))).status()).isEqualTo(200);
    }

    @Test
    void changeLogKeepsOperationsImagesAndLsnOrder() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        ItemResult a = items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"v\":1}"), RequestOptions.NONE);
        ItemResult b = items().replace("1", bytes("{\"id\":\"1\",\"pk\":\"a\",\"v\":2}"), RequestOptions.of(pk("[\"a\"]")));
        items().delete("1", RequestOptions.of(pk("[\"a\"]")));
        List<ChangeRecord> log = changeLog(c);
        assertThat(log).extracting(ChangeRecord::operation).containsExactly(ChangeRecord.Operation.CREATE,
                ChangeRecord.Operation.REPLACE, ChangeRecord.Operation.DELETE);
        assertThat(log).extracting(ChangeRecord::lsn).isSorted().doesNotHaveDuplicates();
        assertThat(log.get(0).newImage()).isEqualTo(a.item().json());
        // superseded, each version's record holds its image; a replace keeps no previous image (not served)
        assertThat(log.get(1).newImage()).isEqualTo(b.item().json());
        assertThat(log.get(1).previousImage()).isNull();
        assertThat(log.get(1).previousLsn()).isEqualTo(a.lsn());
        assertThat(log.get(2).previousImage()).isEqualTo(b.item().json());
        assertThat(log.get(2).newImage()).isNull();
        assertThat(log.get(2).epk()).isEqualTo(EffectivePartitionKey.of(c.partitionKey(), pk("[\"a\"]")));
    }

    @Test
    void changeLogRetentionKeepsEachLiveItemsLatestVersion() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        items().create(bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":1}"), RequestOptions.NONE);
        items().replace("a", bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":2}"), RequestOptions.of(pk("[\"p\"]")));
        ItemResult latest = items().replace("a", bytes("{\"id\":\"a\",\"pk\":\"p\",\"v\":3}"), RequestOptions.of(pk("[\"p\"]")));
        items().create(bytes("{\"id\":\"b\",\"pk\":\"p\"}"), RequestOptions.NONE);
        items().delete("b", RequestOptions.of(pk("[\"p\"]")));
        assertThat(engine.pruneChangeLog()).isZero();
        clock.advance(Limits.DEFAULTS.changeLogRetention().plusSeconds(1));
        ItemResult recent = items().create(bytes("{\"id\":\"c\",\"pk\":\"p\"}"), RequestOptions.NONE);
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
        items().create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), RequestOptions.NONE);
        items().create(bytes("{\"id\":\"2\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), RequestOptions.NONE);
        assertStatus(() -> items().create(bytes("{\"id\":\"3\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), RequestOptions.NONE),
                403, SubStatus.LOGICAL_PARTITION_FULL);
        assertThat(items().create(bytes("{\"id\":\"3\",\"pk\":\"b\",\"p\":\"" + pad + "\"}"), RequestOptions.NONE)
                .status()).isEqualTo(201);
        items().delete("1", RequestOptions.of(pk("[\"a\"]")));
        assertThat(items().create(bytes("{\"id\":\"3\",\"pk\":\"a\",\"p\":\"" + pad + "\"}"), RequestOptions.NONE)
                .status()).isEqualTo(201);
    }

    // ---- physical partitions

    @Test
    void itemsLandInTheRangeOwningTheirEpkAndSplitsKeepThemReadable() {
        ContainerInfo c = container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}");
        for (int i = 0; i < 200; i++) {
            ItemResult r = items().create(bytes("{\"id\":\"i" + i + "\",\"pk\":\"k" + i + "\"}"), RequestOptions.NONE);
            assertThat(r.rangeId()).isEqualTo("0");
        }
        ContainerInfo split = engine.split(c, "0");
        assertThat(split.partitions().partitions()).extracting(PhysicalPartition::id).containsExactly("1", "2");
        assertThat(split.partitions().partitions()).allSatisfy(p -> assertThat(p.parents()).containsExactly("0"));
        int[] perRange = new int[3];
        for (int i = 0; i < 200; i++) {
            ItemResult r = items().read("i" + i, RequestOptions.of(pk("[\"k" + i + "\"]")));
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
