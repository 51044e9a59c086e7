package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKind;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Containers created without a partition key (issue 14): the service's legacy non-partitioned containers, which only an
 * API version before 2018-12-31 can create (the SDKs' own functional tests make them that way) and which the current
 * API shows with the system key {@code /_partitionKey}. The Java SDK sends {@code []} for {@code PartitionKey.NONE}
 * and for an item without the property in such a container ({@code PartitionKeyDefinition.getNonePartitionKeyValue}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NonPartitionedContainerSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String OLD_API = "2018-06-18";

    TestServers t;
    CosmosClient client;
    RawClient raw;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        raw = new RawClient(t.server.endpoint());
        client.createDatabase("np");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    /** POST /dbs/np/colls with {@code {"id": id}} and the given API version. */
    HttpResponse<String> createWithoutKey(String id, String apiVersion, String... headers) {
        RawClient.Call call = raw.call("POST", "/dbs/np/colls").signed("colls", "dbs/np")
                .header("x-ms-version", apiVersion).body("{\"id\":\"" + id + "\"}");
        for (int i = 0; i < headers.length; i += 2) {
            call.header(headers[i], headers[i + 1]);
        }
        return call.send();
    }

    CosmosContainer legacy(String id) {
        HttpResponse<String> created = createWithoutKey(id, OLD_API);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return client.getDatabase("np").getContainer(id);
    }

    static ObjectNode item(String id) {
        return JSON.createObjectNode().put("id", id).put("n", 1);
    }

    List<String> ids(Iterable<JsonNode> items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("id").asText()));
        return out;
    }

    @Test
    void theCurrentApiVersionRefusesABodyWithoutAPartitionKey() throws Exception {
        HttpResponse<String> r = createWithoutKey("nokey", "2020-07-15");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("message").asText())
                .startsWith("A Partition key definition is not specified in the request.");
        // (the Java SDK never sends one: it refuses a null definition itself, "partitionKeyDefinition cannot be
        // null."; the JavaScript SDK fills in {"paths":["/_partitionKey"]})
    }

    @Test
    void aNonPartitionedContainerNeedsAPartitionKeyForMoreThanOnePartitionsThroughput() {
        assertThat(createWithoutKey("big", OLD_API, "x-ms-offer-throughput", "20000").statusCode()).isEqualTo(400);
        assertThat(createWithoutKey("auto", OLD_API, "x-ms-cosmos-offer-autopilot-settings",
                "{\"maxThroughput\":4000}").statusCode()).isEqualTo(400);
        assertThat(createWithoutKey("small", OLD_API, "x-ms-offer-throughput", "10000").statusCode()).isEqualTo(201);
    }

    @Test
    void anOldApiVersionCreatesOnePartitionShownWithTheSystemKey() throws Exception {
        CosmosContainer c = legacy("shape");
        var def = c.read().getProperties().getPartitionKeyDefinition();
        assertThat(def.getPaths()).containsExactly("/_partitionKey");
        assertThat(def.getKind()).isEqualTo(PartitionKind.HASH);
        HttpResponse<String> read = raw.call("GET", "/dbs/np/colls/shape").signed("colls", "dbs/np/colls/shape")
                .header("x-ms-version", "2020-07-15").send();
        JsonNode pk = JSON.readTree(read.body()).get("partitionKey");
        assertThat(pk.get("systemKey").asBoolean()).isTrue();
        assertThat(pk.get("kind").asText()).isEqualTo("Hash");
        assertThat(c.getFeedRanges()).hasSize(1);
    }

    @Test
    void itemsWithoutTheSystemKeyPropertyLiveUnderPartitionKeyNone() {
        CosmosContainer c = legacy("crud");
        assertThat(c.createItem(item("a")).getStatusCode()).isEqualTo(201);
        assertThat(c.createItem(item("b"), PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(201);
        assertThat(c.readItem("a", PartitionKey.NONE, ObjectNode.class).getItem().get("n").asInt()).isEqualTo(1);
        assertThat(c.replaceItem(item("a").put("n", 2), "a", PartitionKey.NONE, new CosmosItemRequestOptions())
                .getStatusCode()).isEqualTo(200);
        assertThat(c.upsertItem(item("c")).getStatusCode()).isEqualTo(201);
        assertThat(c.patchItem("c", PartitionKey.NONE, CosmosPatchOperations.create().increment("/n", 5),
                ObjectNode.class).getStatusCode()).isEqualTo(200);
        assertThat(c.readItem("c", PartitionKey.NONE, ObjectNode.class).getItem().get("n").asInt()).isEqualTo(6);
        assertThat(c.deleteItem("b", PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(204);
        assertThatThrownBy(() -> c.readItem("b", PartitionKey.NONE, ObjectNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));

        assertThat(ids(c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), JsonNode.class)))
                .containsExactlyInAnyOrder("a", "c");
        // readAllItems(PartitionKey.NONE) fails in the Java SDK 4.81 itself (NullPointerException building its query)
        assertThat(c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Integer.class)
                .iterator().next()).isEqualTo(2);
    }

    @Test
    void anOldClientNeedsNoKeyHeaderAndItsItemsAreUnderPartitionKeyNone() {
        CosmosContainer c = legacy("old");
        HttpResponse<String> created = raw.call("POST", "/dbs/np/colls/old/docs").signed("docs", "dbs/np/colls/old")
                .header("x-ms-version", OLD_API).body("{\"id\":\"o\"}").send();
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        HttpResponse<String> read = raw.call("GET", "/dbs/np/colls/old/docs/o")
                .signed("docs", "dbs/np/colls/old/docs/o").header("x-ms-version", OLD_API).send();
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(c.readItem("o", PartitionKey.NONE, ObjectNode.class).getStatusCode()).isEqualTo(200);
        c.createItem(item("k").put("_partitionKey", "tenant"));
        assertThat(c.deleteAllItemsByPartitionKey(PartitionKey.NONE, new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(200);
        assertThatThrownBy(() -> c.readItem("o", PartitionKey.NONE, ObjectNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
        assertThat(c.readItem("k", new PartitionKey("tenant"), ObjectNode.class).getStatusCode()).isEqualTo(200);
    }

    @Test
    void anItemWithTheSystemKeyPropertyIsInThatLogicalPartition() {
        CosmosContainer c = legacy("keyed");
        ObjectNode keyed = item("x").put("_partitionKey", "tenant");
        assertThat(c.createItem(keyed).getStatusCode()).isEqualTo(201);
        // the same id under NONE is another logical partition
        assertThat(c.createItem(item("x")).getStatusCode()).isEqualTo(201);
        assertThat(c.readItem("x", new PartitionKey("tenant"), ObjectNode.class).getItem().has("_partitionKey"))
                .isTrue();
        assertThat(c.readItem("x", PartitionKey.NONE, ObjectNode.class).getItem().has("_partitionKey")).isFalse();
        CosmosQueryRequestOptions tenant = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("tenant"));
        assertThat(ids(c.queryItems("SELECT * FROM c", tenant, JsonNode.class))).containsExactly("x");
        assertThat(ids(c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), JsonNode.class)))
                .containsExactly("x", "x");
        // a body with the property sent under NONE does not fit its key
        assertThatThrownBy(() -> c.upsertItem(item("y").put("_partitionKey", "tenant"), PartitionKey.NONE,
                new CosmosItemRequestOptions())).isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getSubStatusCode()).isEqualTo(1001);
                    assertThat(e.getMessage()).contains(
                            "PartitionKey extracted from document doesn't match the one specified in the header");
                });
        // a key with two values does not fit the one system path
        HttpResponse<String> two = raw.call("GET", "/dbs/np/colls/keyed/docs/x")
                .signed("docs", "dbs/np/colls/keyed/docs/x")
                .header("x-ms-documentdb-partitionkey", "[\"tenant\",1]").send();
        assertThat(two.statusCode()).isEqualTo(400);
        assertThat(two.body()).contains("The partition key supplied in x-ms-partitionkey header has more components"
                + " than defined in the the collection.");
        assertThat(c.deleteItem("x", new PartitionKey("tenant"), new CosmosItemRequestOptions()).getStatusCode())
                .isEqualTo(204);
        assertThat(c.readItem("x", PartitionKey.NONE, ObjectNode.class).getStatusCode()).isEqualTo(200);
    }

    /** What the .NET SDK sends for a query or feed under {@code PartitionKey.None} here: the key header {@code []}. */
    @Test
    void aQueryOrFeedUnderTheEmptyKeyReadsOnlyTheItemsWithoutTheProperty() throws Exception {
        CosmosContainer c = legacy("scoped");
        c.createItem(item("none-1"));
        c.createItem(item("none-2"));
        c.createItem(item("keyed").put("_partitionKey", "tenant"));
        HttpResponse<String> q = raw.call("POST", "/dbs/np/colls/scoped/docs").signed("docs", "dbs/np/colls/scoped")
                .header("x-ms-documentdb-isquery", "true").header("Content-Type", "application/query+json")
                .header("x-ms-documentdb-partitionkey", "[]").body("{\"query\":\"SELECT * FROM c\"}").send();
        assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
        assertThat(ids(JSON.readTree(q.body()).get("Documents"))).containsExactlyInAnyOrder("none-1", "none-2");
        HttpResponse<String> feed = raw.call("GET", "/dbs/np/colls/scoped/docs").signed("docs", "dbs/np/colls/scoped")
                .header("A-IM", "Incremental Feed").header("x-ms-documentdb-partitionkey", "[]").send();
        assertThat(feed.statusCode()).as(feed.body()).isEqualTo(200);
        assertThat(ids(JSON.readTree(feed.body()).get("Documents"))).containsExactlyInAnyOrder("none-1", "none-2");
    }

    @Test
    void aStoredProcedureRunsUnderPartitionKeyNone() {
        CosmosContainer c = legacy("sproc");
        c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("make", "function (id) {"
                + " var c = getContext().getCollection();"
                + " c.createDocument(c.getSelfLink(), {id: id}, function (e) { if (e) throw e; });"
                + " getContext().getResponse().setBody('made ' + id); }"));
        var r = c.getScripts().getStoredProcedure("make").execute(List.of("s1"),
                new CosmosStoredProcedureRequestOptions().setPartitionKey(PartitionKey.NONE));
        assertThat(r.getResponseAsString()).isEqualTo("\"made s1\"");
        assertThat(c.readItem("s1", PartitionKey.NONE, ObjectNode.class).getStatusCode()).isEqualTo(200);
    }

    @Test
    void batchBulkAndChangeFeedUnderPartitionKeyNone() {
        CosmosContainer c = legacy("batch");
        CosmosBatch batch = CosmosBatch.createCosmosBatch(PartitionKey.NONE);
        batch.createItemOperation(item("1"));
        batch.upsertItemOperation(item("2"));
        batch.readItemOperation("1");
        batch.deleteItemOperation("2");
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.isSuccessStatusCode()).as(r.getErrorMessage()).isTrue();
        assertThat(r.getResults()).extracting(x -> x.getStatusCode()).containsExactly(201, 201, 200, 204);

        // bulk cannot name PartitionKey.NONE in Java 4.81 (it hashes the key client-side and throws "PartitionKey
        // has fewer components than defined the collection resource."): only keyed items go through bulk
        PartitionKey tenant = new PartitionKey("tenant");
        List<CosmosItemOperation> ops = List.of(
                CosmosBulkOperations.getCreateItemOperation(item("3").put("_partitionKey", "tenant"), tenant),
                CosmosBulkOperations.getUpsertItemOperation(item("4").put("_partitionKey", "tenant"), tenant),
                CosmosBulkOperations.getReadItemOperation("3", tenant));
        List<Integer> statuses = new ArrayList<>();
        for (CosmosBulkOperationResponse<Object> b : c.executeBulkOperations(ops)) {
            statuses.add(b.getResponse().getStatusCode());
        }
        assertThat(statuses).containsExactlyInAnyOrder(201, 201, 200);

        var feed = c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forFullRange()), JsonNode.class);
        assertThat(ids(feed)).containsExactlyInAnyOrder("1", "3", "4");
        var tenantFeed = c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(
                FeedRange.forLogicalPartition(tenant)), JsonNode.class);
        assertThat(ids(tenantFeed)).containsExactlyInAnyOrder("3", "4");
    }
}
