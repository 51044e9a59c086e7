package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.implementation.Undefined;
import com.azure.cosmos.implementation.routing.PartitionKeyInternalHelper;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Item shapes real clients send, answered as the service answers them: a patch body that is a bare array, items of a
 * hierarchical key that lack a level, upserts with If-Match of items that do not exist, bulk operations refused like
 * their point operation, the 413 of an oversized item, and the characters the service accepts in item ids.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ItemShapesSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();

    TestServers t;
    CosmosClient client;
    CosmosDatabase db;
    CosmosContainer flat;
    RawClient raw;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("shapes");
        db = client.getDatabase("shapes");
        CosmosContainerProperties props = new CosmosContainerProperties("flat", "/pk");
        props.setDefaultTimeToLiveInSeconds(-1);
        db.createContainer(props);
        flat = db.getContainer("flat");
        raw = new RawClient(t.server.endpoint());
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private static ObjectNode item(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk);
    }

    private static int status(Runnable r) {
        try {
            r.run();
        } catch (CosmosException e) {
            return e.getStatusCode();
        }
        return 0;
    }

    // ---- patch

    @Test
    void aBareArrayOfPatchOperationsIsApplied() throws Exception {
        flat.createItem(item("p1", "a").put("n", 5));
        HttpResponse<String> r = raw.call("PATCH", "/dbs/shapes/colls/flat/docs/p1")
                .signed("docs", "dbs/shapes/colls/flat/docs/p1")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]")
                .body("[{\"op\":\"incr\",\"path\":\"/n\",\"value\":2},{\"op\":\"set\",\"path\":\"/s\",\"value\":\"y\"}]")
                .send();
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode patched = flat.readItem("p1", new PartitionKey("a"), JsonNode.class).getItem();
        assertThat(patched.get("n").asInt()).isEqualTo(7);
        assertThat(patched.get("s").asText()).isEqualTo("y");
    }

    // ---- upsert with If-Match

    @Test
    void anUpsertWithIfMatchOfAnItemThatDoesNotExistCreatesIt() {
        String stale = flat.createItem(item("u0", "a")).getETag();
        CosmosItemRequestOptions ifMatch = new CosmosItemRequestOptions().setIfMatchETag(stale);
        assertThat(flat.upsertItem(item("u1", "a"), new PartitionKey("a"), ifMatch).getStatusCode()).isEqualTo(201);
        assertThat(flat.readItem("u1", new PartitionKey("a"), JsonNode.class).getStatusCode()).isEqualTo(200);
        // an item that exists still needs its etag to match
        assertThat(status(() -> flat.upsertItem(item("u1", "a"), new PartitionKey("a"), ifMatch))).isEqualTo(412);

        List<CosmosItemOperation> ops = List.of(CosmosBulkOperations.getUpsertItemOperation(item("u2", "b"),
                new PartitionKey("b"), new com.azure.cosmos.models.CosmosBulkItemRequestOptions().setIfMatchETag(stale)));
        List<Integer> statuses = new ArrayList<>();
        for (CosmosBulkOperationResponse<Object> r : flat.executeBulkOperations(ops)) {
            statuses.add(r.getResponse().getStatusCode());
        }
        assertThat(statuses).containsExactly(201);
    }

    // ---- bulk bodies per operation

    @Test
    void aBulkWriteWithoutContentResponseHasNoBodyWhenAnotherOperationAsksForItsOwn() {
        flat.createItem(item("mr0", "m"));
        var minimal = new com.azure.cosmos.models.CosmosBulkItemRequestOptions().setContentResponseOnWriteEnabled(false);
        var full = new com.azure.cosmos.models.CosmosBulkItemRequestOptions().setContentResponseOnWriteEnabled(true);
        // one operation asking for its body makes the SDK ask for bodies for the whole request; the other says
        // minimalReturnPreference for itself
        List<CosmosItemOperation> ops = List.of(
                CosmosBulkOperations.getCreateItemOperation(item("mr1", "m"), new PartitionKey("m"), minimal),
                CosmosBulkOperations.getCreateItemOperation(item("mr2", "m"), new PartitionKey("m"), full),
                CosmosBulkOperations.getReadItemOperation("mr0", new PartitionKey("m")));
        List<String> bodies = new ArrayList<>();
        for (CosmosBulkOperationResponse<Object> r : flat.executeBulkOperations(ops)) {
            JsonNode body = r.getResponse().getItem(JsonNode.class);
            String id = r.getOperation().getId() != null ? r.getOperation().getId() // a read names its id
                    : ((JsonNode) r.getOperation().getItem()).get("id").asText();
            bodies.add(id + "=" + (body == null ? "none" : body.get("id").asText()));
        }
        assertThat(bodies).containsExactlyInAnyOrder("mr1=none", "mr2=mr2", "mr0=mr0");
    }

    // ---- hierarchical keys without a level

    @Test
    void anItemWithoutAKeyLevelIsStoredRoutedReadQueriedAndBulkWritten() {
        PartitionKeyDefinition def = new PartitionKeyDefinition();
        def.setPaths(List.of("/tenantId", "/userId"));
        def.setKind(PartitionKind.MULTI_HASH);
        def.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hpk", def), ThroughputProperties.createManualThroughput(24000));
        CosmosContainer c = db.getContainer("hpk");
        PartitionKey partial = PartitionKey.fromObjectArray(new Object[] {"t1", Undefined.value()}, true);

        ObjectNode doc = JSON.createObjectNode().put("id", "partial").put("tenantId", "t1").put("v", 1);
        assertThat(c.createItem(doc, partial, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(201);
        assertThat(c.readItem("partial", partial, JsonNode.class).getItem().get("v").asInt()).isEqualTo(1);
        // a null level is another key
        assertThat(status(() -> c.readItem("partial", new PartitionKeyBuilder().add("t1").addNullValue().build(),
                JsonNode.class))).isEqualTo(404);

        CosmosQueryRequestOptions full = new CosmosQueryRequestOptions().setPartitionKey(partial);
        assertThat(c.queryItems("SELECT * FROM c", full, JsonNode.class).stream().map(n -> n.get("id").asText()))
                .containsExactly("partial");
        CosmosQueryRequestOptions prefix = new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKeyBuilder().add("t1").build());
        assertThat(c.queryItems("SELECT * FROM c", prefix, JsonNode.class).stream().map(n -> n.get("id").asText()))
                .containsExactly("partial");

        List<CosmosItemOperation> bulk = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            PartitionKey pk = PartitionKey.fromObjectArray(new Object[] {"bulk" + i, Undefined.value()}, true);
            bulk.add(CosmosBulkOperations.getCreateItemOperation(
                    JSON.createObjectNode().put("id", "b" + i).put("tenantId", "bulk" + i), pk));
        }
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(bulk)) {
            assertThat(r.getResponse().getStatusCode()).isEqualTo(201);
        }
        // each landed in the physical partition owning the SDK's own EPK of its key
        ContainerInfo info = t.engine.readContainer("shapes", "hpk");
        assertThat(info.partitions().size()).isGreaterThan(1);
        for (int i = 0; i < 10; i++) {
            PartitionKey pk = PartitionKey.fromObjectArray(new Object[] {"bulk" + i, Undefined.value()}, true);
            String epk = PartitionKeyInternalHelper.getEffectivePartitionKeyString(
                    ModelBridgeInternal.getPartitionKeyInternal(pk), def);
            String range = info.partitions().route(epk).id();
            CosmosQueryRequestOptions inRange = new CosmosQueryRequestOptions()
                    .setFeedRange(com.azure.cosmos.models.FeedRange.forLogicalPartition(pk));
            assertThat(c.queryItems("SELECT * FROM c", inRange, JsonNode.class).stream()
                    .map(n -> n.get("id").asText())).as("range %s", range).containsExactly("b" + i);
            assertThat(c.readItem("b" + i, pk, JsonNode.class).getStatusCode()).isEqualTo(200);
        }
    }

    // ---- bulk refuses what a point operation refuses, alike

    @Test
    void aBulkOperationWithABadTtlGetsTheStatusAndMessageOfThePlainCreate() throws Exception {
        String body = "{\"id\":\"t1\",\"pk\":\"a\",\"ttl\":0}";
        HttpResponse<String> single = raw.call("POST", "/dbs/shapes/colls/flat/docs")
                .signed("docs", "dbs/shapes/colls/flat").header("x-ms-documentdb-partitionkey", "[\"a\"]")
                .body(body).send();
        assertThat(single.statusCode()).isEqualTo(400);
        // the message proper: the plain request's ends with the line naming its activity id
        String message = JSON.readTree(single.body()).get("message").asText().split("\r\nActivityId: ")[0];

        HttpResponse<String> bulk = raw.call("POST", "/dbs/shapes/colls/flat/docs")
                .signed("docs", "dbs/shapes/colls/flat")
                .header("x-ms-cosmos-is-batch-request", "True").header("x-ms-cosmos-batch-atomic", "False")
                .header("x-ms-cosmos-batch-continue-on-error", "True")
                .body("[{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"a\\\"]\",\"resourceBody\":" + body + "}]")
                .send();
        JsonNode op = JSON.readTree(bulk.body()).get(0);
        assertThat(op.get("statusCode").asInt()).isEqualTo(400);
        assertThat(op.get("message").asText()).isEqualTo(message);

        List<CosmosItemOperation> ops = List.of(CosmosBulkOperations.getCreateItemOperation(
                JSON.readTree(body), new PartitionKey("a")));
        for (CosmosBulkOperationResponse<Object> r : flat.executeBulkOperations(ops)) {
            assertThat(r.getResponse().getStatusCode()).isEqualTo(400);
        }
    }

    // ---- 413

    @Test
    void anItemOverTwoMegabytesIs413WithTheServicesMessage() throws Exception {
        ObjectNode big = item("big", "a").put("blob", "x".repeat(2 * 1024 * 1024 - 100));
        assertThatThrownBy(() -> flat.createItem(big)).isInstanceOfSatisfying(CosmosException.class, e -> {
            assertThat(e.getStatusCode()).isEqualTo(413);
            assertThat(e.getSubStatusCode()).isZero();
            assertThat(e.getMessage()).contains("Request size is too large");
        });
        HttpResponse<String> r = raw.call("POST", "/dbs/shapes/colls/flat/docs")
                .signed("docs", "dbs/shapes/colls/flat").header("x-ms-documentdb-partitionkey", "[\"a\"]")
                .body(JSON.writeValueAsString(big)).send();
        JsonNode error = JSON.readTree(r.body());
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(error.get("code").asText()).isEqualTo("RequestEntityTooLarge");
        // the service's message, then the line every error message of the service ends with
        assertThat(error.get("message").asText()).isEqualTo("Message: {\"Errors\":[\"Request size is too large\"]}"
                + "\r\nActivityId: " + r.headers().firstValue("x-ms-activity-id").orElseThrow()
                + ", Microsoft.Azure.Documents.Common/2.14.0");
    }

    // ---- item ids

    @Test
    void idsWithQuestionMarksAndHashesWorkAndABackslashIsRefused() throws Exception {
        for (String id : List.of("what?", "a?b=c&d", "tag#1", "plus+and space")) {
            assertThat(flat.createItem(item(id, "ids")).getStatusCode()).as(id).isEqualTo(201);
            assertThat(flat.readItem(id, new PartitionKey("ids"), JsonNode.class).getItem().get("id").asText())
                    .isEqualTo(id);
            assertThat(flat.replaceItem(item(id, "ids").put("v", 2), id, new PartitionKey("ids"),
                    new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(200);
            assertThat(flat.deleteItem(id, new PartitionKey("ids"), new CosmosItemRequestOptions())
                    .getStatusCode()).isEqualTo(204);
        }
        // the service stores an id with a slash; a point operation cannot name it, a query finds it
        assertThat(flat.createItem(item("a/b", "slash")).getStatusCode()).isEqualTo(201);
        assertThat(flat.queryItems("SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("slash")), String.class).stream()).containsExactly("a/b");
        assertThat(status(() -> flat.createItem(item("back\\slash", "a")))).isEqualTo(400);
        // (the Java SDK drops a backslash from a request path; a client that sends it is told the same)
        HttpResponse<String> read = raw.call("GET", "/dbs/shapes/colls/flat/docs/back%5Cslash")
                .signed("docs", "dbs/shapes/colls/flat/docs/back\\slash")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").send();
        assertThat(read.statusCode()).isEqualTo(400);
    }
}
