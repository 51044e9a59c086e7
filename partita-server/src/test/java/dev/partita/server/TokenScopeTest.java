package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A resource token's scope holds for every operation the engine runs, not only for what a request's headers name: each
 * operation of a bulk request, queries and feeds, and the container itself (which a token may read but not replace or
 * delete). Through the SDK and through raw HTTP, where a client can put anything in a bulk body.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TokenScopeTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient admin;
    CosmosAsyncClient adminAsync;
    String p1Token;
    String containerToken;

    @BeforeAll
    void start() {
        t = TestServers.http();
        admin = t.client();
        adminAsync = t.asyncClient();
        admin.createDatabase("scope");
        admin.getDatabase("scope").createContainer("c", "/pk");
        admin.getDatabase("scope").getContainer("c").createItem(doc("in-p2", "p2"));
        admin.getDatabase("scope").createUser(new CosmosUserProperties().setId("bob"));
        p1Token = token(new CosmosPermissionProperties().setId("p1-only").setPermissionMode(PermissionMode.ALL)
                .setContainerName("c").setResourcePartitionKey(new PartitionKey("p1")));
        containerToken = token(new CosmosPermissionProperties().setId("whole").setPermissionMode(PermissionMode.ALL)
                .setContainerName("c"));
    }

    @AfterAll
    void stop() {
        admin.close();
        adminAsync.close();
        t.close();
    }

    private String token(CosmosPermissionProperties p) {
        return adminAsync.getDatabase("scope").getUser("bob").upsertPermission(p, null).block().getProperties()
                .getToken();
    }

    private CosmosClient tokenClient(String token) {
        return new com.azure.cosmos.CosmosClientBuilder().endpoint(t.server.endpoint()).resourceToken(token)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient();
    }

    static ObjectNode doc(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk);
    }

    private boolean exists(String id, String pk) {
        try {
            admin.getDatabase("scope").getContainer("c").readItem(id, new PartitionKey(pk), JsonNode.class);
            return true;
        } catch (CosmosException e) {
            assertThat(e.getStatusCode()).isEqualTo(404);
            return false;
        }
    }

    private RawClient.Call asToken(RawClient.Call call, String token) {
        return call.unsigned().header("authorization", URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    @Test
    void aBulkBodyCannotReachPastThePartitionKeyItsTokenNames() throws Exception {
        RawClient raw = new RawClient(t.server.endpoint());
        ArrayNode ops = JSON.createArrayNode();
        // the SDK's bulk body: each operation names its own key, as JSON text
        ops.addObject().put("operationType", "Create").put("partitionKey", "[\"p1\"]")
                .set("resourceBody", doc("raw-p1", "p1"));
        ops.addObject().put("operationType", "Create").put("partitionKey", "[\"p2\"]")
                .set("resourceBody", doc("raw-p2", "p2"));
        ops.addObject().put("operationType", "Delete").put("id", "in-p2").put("partitionKey", "[\"p2\"]");
        HttpResponse<String> r = asToken(raw.call("POST", "/dbs/scope/colls/c/docs"), p1Token)
                .header("x-ms-cosmos-is-batch-request", "True").header("x-ms-cosmos-batch-atomic", "False")
                .header("x-ms-documentdb-partitionkey", "[\"p1\"]").body(JSON.writeValueAsString(ops)).send();
        assertThat(r.statusCode()).as(r.body()).isEqualTo(207);
        JsonNode results = JSON.readTree(r.body());
        assertThat(results.get(0).get("statusCode").asInt()).isEqualTo(201);
        assertThat(results.get(1).get("statusCode").asInt()).isEqualTo(403);
        assertThat(results.get(2).get("statusCode").asInt()).isEqualTo(403);
        assertThat(exists("raw-p1", "p1")).isTrue();
        assertThat(exists("raw-p2", "p2")).as("nothing written outside the token's key").isFalse();
        assertThat(exists("in-p2", "p2")).as("nothing deleted outside the token's key").isTrue();
    }

    @Test
    void theSdksBulkWithAPartitionScopedTokenWritesOnlyInsideIt() {
        try (CosmosClient c = tokenClient(p1Token)) {
            CosmosContainer container = c.getDatabase("scope").getContainer("c");
            List<CosmosItemOperation> ops = List.of(
                    CosmosBulkOperations.getCreateItemOperation(doc("sdk-p1", "p1"), new PartitionKey("p1")),
                    CosmosBulkOperations.getCreateItemOperation(doc("sdk-p2", "p2"), new PartitionKey("p2")));
            List<Integer> statuses = new ArrayList<>();
            for (CosmosBulkOperationResponse<Object> r : container.executeBulkOperations(ops)) {
                statuses.add(r.getResponse() != null ? r.getResponse().getStatusCode()
                        : ((CosmosException) r.getException()).getStatusCode());
            }
            assertThat(statuses).containsExactlyInAnyOrder(201, 403);
        }
        assertThat(exists("sdk-p1", "p1")).isTrue();
        assertThat(exists("sdk-p2", "p2")).isFalse();
    }

    @Test
    void aPartitionScopedTokenQueriesItsPartitionOnly() {
        try (CosmosClient c = tokenClient(p1Token)) {
            CosmosContainer container = c.getDatabase("scope").getContainer("c");
            CosmosQueryRequestOptions inP1 = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p1"));
            assertThat(container.queryItems("SELECT * FROM c", inP1, JsonNode.class).stream().count()).isNotNegative();
            CosmosQueryRequestOptions inP2 = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p2"));
            assertThatThrownBy(() -> container.queryItems("SELECT * FROM c", inP2, JsonNode.class).stream().count())
                    .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(403));
        }
    }

    @Test
    void aTokenReadsItsContainerButCannotReplaceOrDeleteIt() {
        try (CosmosClient c = tokenClient(containerToken)) {
            CosmosContainer container = c.getDatabase("scope").getContainer("c");
            CosmosContainerProperties props = container.read().getProperties();
            assertThat(props.getId()).isEqualTo("c");
            props.setDefaultTimeToLiveInSeconds(60);
            assertThatThrownBy(() -> container.replace(props)).isInstanceOfSatisfying(CosmosException.class,
                    e -> assertThat(e.getStatusCode()).isEqualTo(403));
            assertThatThrownBy(container::delete).isInstanceOfSatisfying(CosmosException.class,
                    e -> assertThat(e.getStatusCode()).isEqualTo(403));
        }
        RawClient raw = new RawClient(t.server.endpoint());
        assertThat(asToken(raw.call("DELETE", "/dbs/scope/colls/c"), p1Token).send().statusCode()).isEqualTo(403);
        assertThat(asToken(raw.call("PUT", "/dbs/scope/colls/c"), p1Token)
                .body("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}").send().statusCode()).isEqualTo(403);
        assertThat(admin.getDatabase("scope").getContainer("c").read().getProperties().getDefaultTimeToLiveInSeconds())
                .as("the container is as it was").isNull();
    }
}
