package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemIdentity;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Point operations, conditions, patch, batch, bulk and read-many through the real SDK. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ItemOperationsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("items");
        db = client.getDatabase("items");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    static ObjectNode doc(String id, String field, Object pk) {
        ObjectNode o = JSON.createObjectNode().put("id", id);
        if (pk instanceof String s) {
            o.put(field, s);
        } else if (pk instanceof Integer i) {
            o.put(field, i);
        }
        return o;
    }

    static void assertStatus(Runnable r, int status) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(CosmosException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(status));
    }

    /** Every point operation, with and without conditions, on a container partitioned as given. */
    private void pointOperations(CosmosContainer c, Function<String, ObjectNode> make, PartitionKey pk) {
        ObjectNode a = make.apply("a");
        CosmosItemResponse<ObjectNode> created = c.createItem(a, pk, new CosmosItemRequestOptions());
        assertThat(created.getStatusCode()).isEqualTo(201);
        assertThat(created.getETag()).isNotBlank();
        assertThat(created.getSessionToken()).contains(":").contains("#");
        assertThat(created.getRequestCharge()).isPositive();
        assertStatus(() -> c.createItem(a, pk, new CosmosItemRequestOptions()), 409);

        CosmosItemResponse<ObjectNode> read = c.readItem("a", pk, ObjectNode.class);
        assertThat(read.getStatusCode()).isEqualTo(200);
        assertThat(read.getETag()).isEqualTo(created.getETag());
        assertThat(read.getItem().get("_rid").asText()).isNotBlank();
        assertStatus(() -> c.readItem("missing", pk, ObjectNode.class), 404);

        // If-None-Match with the current etag: 304, no body
        CosmosItemResponse<ObjectNode> notModified = c.readItem("a", pk,
                new CosmosItemRequestOptions().setIfNoneMatchETag(read.getETag()), ObjectNode.class);
        assertThat(notModified.getStatusCode()).isEqualTo(304);

        ObjectNode changed = a.deepCopy().put("v", 2);
        CosmosItemResponse<ObjectNode> replaced = c.replaceItem(changed, "a", pk,
                new CosmosItemRequestOptions().setIfMatchETag(read.getETag()));
        assertThat(replaced.getStatusCode()).isEqualTo(200);
        assertThat(replaced.getETag()).isNotEqualTo(read.getETag());
        // stale If-Match: 412
        assertStatus(() -> c.replaceItem(changed, "a", pk,
                new CosmosItemRequestOptions().setIfMatchETag(read.getETag())), 412);
        assertThat(c.readItem("a", pk, new CosmosItemRequestOptions().setIfNoneMatchETag(read.getETag()),
                ObjectNode.class).getItem().get("v").asInt()).isEqualTo(2);

        assertThat(c.upsertItem(make.apply("b"), pk, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(201);
        assertThat(c.upsertItem(make.apply("b").put("v", 3), pk, new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(200);
        assertStatus(() -> c.upsertItem(make.apply("b"), pk,
                new CosmosItemRequestOptions().setIfMatchETag(read.getETag())), 412);

        assertStatus(() -> c.deleteItem("a", pk, new CosmosItemRequestOptions().setIfMatchETag(read.getETag())), 412);
        assertThat(c.deleteItem("a", pk, new CosmosItemRequestOptions().setIfMatchETag(replaced.getETag()))
                .getStatusCode()).isEqualTo(204);
        assertThat(c.deleteItem("b", pk, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(204);
        assertStatus(() -> c.deleteItem("b", pk, new CosmosItemRequestOptions()), 404);
    }

    @Test
    void pointOperationsOnPkV2() {
        db.createContainer("pk", "/pk");
        pointOperations(db.getContainer("pk"), id -> doc(id, "pk", "P1"), new PartitionKey("P1"));
    }

    @Test
    void pointOperationsOnNumericKey() {
        db.createContainer("num", "/n");
        pointOperations(db.getContainer("num"), id -> doc(id, "n", 5), new PartitionKey(5));
    }

    @Test
    void pointOperationsOnId() {
        db.createContainer("byid", "/id");
        CosmosContainer c = db.getContainer("byid");
        for (String id : List.of("a", "b")) {
            c.createItem(doc(id, "x", null));
            assertThat(c.readItem(id, new PartitionKey(id), ObjectNode.class).getItem().get("id").asText())
                    .isEqualTo(id);
        }
        // special characters survive the path: space, plus, percent, unicode
        for (String id : List.of("with space", "a+b", "100%", "h\u00e9llo", "x=y-z")) {
            c.createItem(doc(id, "x", null));
            assertThat(c.readItem(id, new PartitionKey(id), ObjectNode.class).getItem().get("id").asText())
                    .isEqualTo(id);
            c.deleteItem(id, new PartitionKey(id), new CosmosItemRequestOptions());
        }
    }

    private CosmosContainer hierarchical(String name, String... paths) {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        def.setPaths(List.of(paths));
        db.createContainer(new CosmosContainerProperties(name, def));
        return db.getContainer(name);
    }

    @Test
    void pointOperationsOnHierarchicalKeys() {
        CosmosContainer two = hierarchical("h2", "/tenant", "/user");
        pointOperations(two, id -> doc(id, "tenant", "t1").put("user", "u1"),
                new PartitionKeyBuilder().add("t1").add("u1").build());
        CosmosContainer three = hierarchical("h3", "/tenant", "/user", "/session");
        pointOperations(three, id -> doc(id, "tenant", "t1").put("user", "u1").put("session", 7),
                new PartitionKeyBuilder().add("t1").add("u1").add(7).build());
    }

    @Test
    void patch() {
        db.createContainer("patch", "/pk");
        CosmosContainer c = db.getContainer("patch");
        ObjectNode d = doc("p", "pk", "k").put("n", 1).put("s", "a").put("gone", true);
        d.putArray("arr").add(1).add(2);
        c.createItem(d);
        PartitionKey pk = new PartitionKey("k");
        String etag = c.readItem("p", pk, ObjectNode.class).getETag();
        CosmosPatchOperations ops = CosmosPatchOperations.create()
                .set("/s", "b").increment("/n", 5).remove("/gone").add("/arr/-", 3).add("/added", "new");
        CosmosItemResponse<ObjectNode> r = c.patchItem("p", pk, ops,
                (com.azure.cosmos.models.CosmosPatchItemRequestOptions)
                        new com.azure.cosmos.models.CosmosPatchItemRequestOptions()
                                .setContentResponseOnWriteEnabled(true), ObjectNode.class);
        assertThat(r.getItem().get("n").asInt()).isEqualTo(6);
        assertThat(r.getStatusCode()).isEqualTo(200);
        ObjectNode after = c.readItem("p", pk, ObjectNode.class).getItem();
        assertThat(after.get("s").asText()).isEqualTo("b");
        assertThat(after.get("n").asInt()).isEqualTo(6);
        assertThat(after.has("gone")).isFalse();
        assertThat(after.get("arr")).hasSize(3);
        assertThat(after.get("added").asText()).isEqualTo("new");
        // stale If-Match, missing item, patching the partition key
        com.azure.cosmos.models.CosmosPatchItemRequestOptions stale =
                new com.azure.cosmos.models.CosmosPatchItemRequestOptions();
        stale.setIfMatchETag(etag);
        assertStatus(() -> c.patchItem("p", pk, CosmosPatchOperations.create().set("/s", "c"), stale,
                ObjectNode.class), 412);
        assertStatus(() -> c.patchItem("nope", pk, CosmosPatchOperations.create().set("/s", "c"), ObjectNode.class),
                404);
        assertStatus(() -> c.patchItem("p", pk, CosmosPatchOperations.create().set("/pk", "z"), ObjectNode.class),
                400);
    }

    @Test
    void transactionalBatchThatSucceeds() {
        db.createContainer("batch", "/pk");
        CosmosContainer c = db.getContainer("batch");
        PartitionKey pk = new PartitionKey("B");
        c.createItem(doc("existing", "pk", "B").put("v", 1));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(pk);
        batch.createItemOperation(doc("n1", "pk", "B"));
        batch.upsertItemOperation(doc("n2", "pk", "B"));
        batch.readItemOperation("existing");
        batch.replaceItemOperation("existing", doc("existing", "pk", "B").put("v", 2));
        batch.patchItemOperation("n2", CosmosPatchOperations.create().set("/p", true));
        batch.deleteItemOperation("n1");
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.isSuccessStatusCode()).isTrue();
        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(r.getResults()).hasSize(6);
        assertThat(r.getResults().stream().map(x -> x.getStatusCode()).toList())
                .containsExactly(201, 201, 200, 200, 200, 204);
        assertThat(r.getResults().get(0).getETag()).isNotBlank();
        assertThat(r.getResults().get(2).getItem(ObjectNode.class).get("v").asInt()).isEqualTo(1);
        assertThat(c.readItem("existing", pk, ObjectNode.class).getItem().get("v").asInt()).isEqualTo(2);
        assertThat(c.readItem("n2", pk, ObjectNode.class).getItem().get("p").asBoolean()).isTrue();
        assertStatus(() -> c.readItem("n1", pk, ObjectNode.class), 404);
    }

    @Test
    void transactionalBatchThatFailsAtomically() {
        db.createContainer("batchfail", "/pk");
        CosmosContainer c = db.getContainer("batchfail");
        PartitionKey pk = new PartitionKey("F");
        c.createItem(doc("dup", "pk", "F"));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(pk);
        batch.createItemOperation(doc("fresh", "pk", "F"));
        batch.createItemOperation(doc("dup", "pk", "F"));
        batch.upsertItemOperation(doc("other", "pk", "F"));
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.isSuccessStatusCode()).isFalse();
        assertThat(r.getStatusCode()).isEqualTo(409);
        assertThat(r.getResults().stream().map(x -> x.getStatusCode()).toList()).containsExactly(424, 409, 424);
        assertStatus(() -> c.readItem("fresh", pk, ObjectNode.class), 404);
        assertStatus(() -> c.readItem("other", pk, ObjectNode.class), 404);
    }

    @Test
    void bulkOfTenThousandItems() {
        db.createContainer("bulk", "/pk", ThroughputProperties.createManualThroughput(30_000));
        CosmosContainer c = db.getContainer("bulk");
        List<CosmosItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            String pk = "k" + (i % 997);
            ops.add(CosmosBulkOperations.getCreateItemOperation(doc("i" + i, "pk", pk), new PartitionKey(pk)));
        }
        int ok = 0;
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
            assertThat(r.getException()).isNull();
            assertThat(r.getResponse().getStatusCode()).isEqualTo(201);
            ok++;
        }
        assertThat(ok).isEqualTo(10_000);
        assertThat(c.readItem("i9999", new PartitionKey("k" + (9999 % 997)), ObjectNode.class).getItem()
                .get("id").asText()).isEqualTo("i9999");
        // a second round: creates conflict one by one, reads succeed
        List<CosmosItemOperation> again = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String pk = "k" + (i % 997);
            again.add(i % 2 == 0
                    ? CosmosBulkOperations.getCreateItemOperation(doc("i" + i, "pk", pk), new PartitionKey(pk))
                    : CosmosBulkOperations.getReadItemOperation("i" + i, new PartitionKey(pk)));
        }
        Map<Integer, Integer> statuses = new HashMap<>();
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(again)) {
            statuses.merge(r.getResponse().getStatusCode(), 1, Integer::sum);
        }
        assertThat(statuses).containsEntry(409, 150).containsEntry(200, 150);
    }

    @Test
    void aContainerRecreatedUnderItsNameIsFoundAgain() {
        db.createContainer("phoenix", "/pk");
        CosmosContainer c = db.getContainer("phoenix");
        c.createItem(doc("before", "pk", "x"));
        String oldRid = c.read().getProperties().getResourceId();
        // another client deletes and re-creates it: this client's cache still names the old rid
        try (CosmosClient other = t.client()) {
            other.getDatabase("items").getContainer("phoenix").delete();
            other.getDatabase("items").createContainer("phoenix", "/pk");
        }
        // the server answers 400/1024 to the stale rid; the SDK refreshes its cache and retries
        assertThat(c.createItem(doc("after", "pk", "x")).getStatusCode()).isEqualTo(201);
        assertThat(c.read().getProperties().getResourceId()).isNotEqualTo(oldRid);
        assertStatus(() -> c.readItem("before", new PartitionKey("x"), ObjectNode.class), 404);
    }

    @Test
    void containerQueriesFilterById() {
        db.createContainer("q1", "/pk");
        db.createContainer("q2", "/pk");
        com.azure.cosmos.models.SqlQuerySpec spec = new com.azure.cosmos.models.SqlQuerySpec(
                "SELECT * FROM root r WHERE r.id = @id",
                List.of(new com.azure.cosmos.models.SqlParameter("@id", "q2")));
        assertThat(db.queryContainers(spec).stream().map(CosmosContainerProperties::getId).toList())
                .containsExactly("q2");
    }

    @Test
    void readManyWithEveryItemInADifferentRange() {
        db.createContainer("many", "/pk", ThroughputProperties.createManualThroughput(30_000));
        CosmosContainer c = db.getContainer("many");
        ContainerInfo info = t.engine.readContainer("items", "many");
        assertThat(info.partitions().size()).isEqualTo(5);
        // one key per physical partition, found with the server's own routing
        Map<String, String> keyByRange = new HashMap<>();
        for (int i = 0; keyByRange.size() < 5; i++) {
            String key = "key" + i;
            String range = info.partitions().route(EffectivePartitionKey.of(info.partitionKey(),
                    PartitionKeyValue.of(new PartitionKeyValue.Str(key)))).id();
            keyByRange.putIfAbsent(range, key);
        }
        List<CosmosItemIdentity> ids = new ArrayList<>();
        for (String key : keyByRange.values()) {
            c.createItem(doc("m-" + key, "pk", key));
            ids.add(new CosmosItemIdentity(new PartitionKey(key), "m-" + key));
        }
        // one item per range: the SDK reads each with a point read (two in one range would make it send a query)
        FeedResponse<ObjectNode> many = c.readMany(ids, ObjectNode.class);
        assertThat(many.getResults()).hasSize(5);
        assertThat(many.getResults().stream().map(n -> n.get("id").asText()).toList())
                .containsExactlyInAnyOrderElementsOf(keyByRange.values().stream().map(k -> "m-" + k).toList());
        // a missing item is simply absent (its point read's 404 is not an error)
        assertThat(c.readMany(List.of(new CosmosItemIdentity(new PartitionKey("absent"), "absent")), ObjectNode.class)
                .getResults()).isEmpty();
    }
}
