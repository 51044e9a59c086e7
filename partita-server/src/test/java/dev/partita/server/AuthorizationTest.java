package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncUser;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosPermissionResponse;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.CosmosUserResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Resource tokens confined to their scope (and needing no date), users and permissions renamed by replace, read-only
 * keys refused on writes, wrong keys refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizationTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient admin;
    CosmosAsyncClient adminAsync;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        admin = t.client();
        adminAsync = t.asyncClient();
        admin.createDatabase("auth");
        db = admin.getDatabase("auth");
        db.createContainer("mine", "/pk");
        db.createContainer("theirs", "/pk");
        db.getContainer("mine").createItem(doc("seed", "A"));
        db.getContainer("mine").createItem(doc("seedB", "B"));
        db.getContainer("theirs").createItem(doc("t", "A"));
        db.createUser(new CosmosUserProperties().setId("alice"));
    }

    @AfterAll
    void stop() {
        admin.close();
        adminAsync.close();
        t.close();
    }

    private CosmosAsyncUser user(String id) {
        return adminAsync.getDatabase("auth").getUser(id);
    }

    static ObjectNode doc(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk);
    }

    static void assertStatus(Runnable r, int status) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(CosmosException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(status));
    }

    private String token(CosmosPermissionProperties p) {
        CosmosPermissionResponse r = user("alice").upsertPermission(p, null).block();
        String token = r.getProperties().getToken();
        assertThat(token).startsWith("type=resource&");
        return token;
    }

    private CosmosClient tokenClient(String token) {
        return new com.azure.cosmos.CosmosClientBuilder().endpoint(t.server.endpoint()).resourceToken(token)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient();
    }

    @Test
    void containerTokenReachesItsContainerOnly() {
        String token = token(new CosmosPermissionProperties().setId("all-mine").setPermissionMode(PermissionMode.ALL)
                .setContainerName("mine"));
        try (CosmosClient c = tokenClient(token)) {
            CosmosContainer mine = c.getDatabase("auth").getContainer("mine");
            mine.createItem(doc("x", "A"));
            assertThat(mine.readItem("seed", new PartitionKey("A"), ObjectNode.class).getItem().get("id").asText())
                    .isEqualTo("seed");
            mine.upsertItem(doc("x", "A").put("v", 1));
            mine.deleteItem("x", new PartitionKey("A"), new CosmosItemRequestOptions());

            CosmosContainer theirs = c.getDatabase("auth").getContainer("theirs");
            assertStatus(() -> theirs.readItem("t", new PartitionKey("A"), ObjectNode.class), 403);
            assertStatus(() -> theirs.createItem(doc("y", "A")), 403);
            assertStatus(() -> c.createDatabase("nope"), 403);
            assertStatus(() -> c.getDatabase("auth").read(), 403);
        }
    }

    @Test
    void partitionKeyAndReadOnlyTokens() {
        String pkToken = token(new CosmosPermissionProperties().setId("pk-a").setPermissionMode(PermissionMode.ALL)
                .setContainerName("mine").setResourcePartitionKey(new PartitionKey("A")));
        try (CosmosClient c = tokenClient(pkToken)) {
            CosmosContainer mine = c.getDatabase("auth").getContainer("mine");
            mine.createItem(doc("pa", "A"));
            assertThat(mine.readItem("seed", new PartitionKey("A"), ObjectNode.class).getStatusCode()).isEqualTo(200);
            assertStatus(() -> mine.readItem("seedB", new PartitionKey("B"), ObjectNode.class), 403);
            assertStatus(() -> mine.createItem(doc("pb", "B")), 403);
            assertStatus(() -> mine.upsertItem(doc("pb", "B")), 403);
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("B"));
            batch.createItemOperation(doc("pbb", "B"));
            assertStatus(() -> mine.executeCosmosBatch(batch), 403);
        }
        String readToken = token(new CosmosPermissionProperties().setId("read-mine")
                .setPermissionMode(PermissionMode.READ).setContainerName("mine"));
        try (CosmosClient c = tokenClient(readToken)) {
            CosmosContainer mine = c.getDatabase("auth").getContainer("mine");
            assertThat(mine.readItem("seedB", new PartitionKey("B"), ObjectNode.class).getStatusCode()).isEqualTo(200);
            assertStatus(() -> mine.createItem(doc("r", "B")), 403);
        }
    }

    @Test
    void itemTokenReachesOneItem() {
        String token = token(new CosmosPermissionProperties().setId("one-item").setPermissionMode(PermissionMode.ALL)
                .setContainerName("mine").setResourcePath(
                        com.azure.cosmos.models.ContainerChildResourceType.ITEM, "seed"));
        try (CosmosClient c = tokenClient(token)) {
            CosmosContainer mine = c.getDatabase("auth").getContainer("mine");
            assertThat(mine.readItem("seed", new PartitionKey("A"), ObjectNode.class).getStatusCode()).isEqualTo(200);
            assertStatus(() -> mine.readItem("seedB", new PartitionKey("B"), ObjectNode.class), 403);
            assertStatus(() -> mine.createItem(doc("new", "A")), 403);
        }
    }

    @Test
    void deletingThePermissionRevokesItsToken() {
        String token = token(new CosmosPermissionProperties().setId("temp").setPermissionMode(PermissionMode.ALL)
                .setContainerName("mine"));
        user("alice").getPermission("temp").delete(null).block();
        assertThatThrownBy(() -> tokenClient(token).close()).isNotNull();
    }

    @Test
    void resourceTokenRequestsNeedNoDate() {
        String token = token(new CosmosPermissionProperties().setId("no-date").setPermissionMode(PermissionMode.READ)
                .setContainerName("mine"));
        RawClient raw = new RawClient(t.server.endpoint());
        String header = URLEncoder.encode(token, StandardCharsets.UTF_8);
        // what the JavaScript SDK sends with resourceTokens: the token and no x-ms-date
        assertThat(raw.call("GET", "/").unsigned().date(null).header("authorization", header).send().statusCode())
                .isEqualTo(200);
        assertThat(raw.call("GET", "/dbs/auth/colls/mine/docs/seed").unsigned().date(null)
                .header("authorization", header).header("x-ms-documentdb-partitionkey", "[\"A\"]").send()
                .statusCode()).isEqualTo(200);
        // a master-key signature still needs its date
        assertThat(raw.call("GET", "/dbs/auth").signed("dbs", "dbs/auth").date(null).send().statusCode())
                .isEqualTo(401);
    }

    @Test
    void renamingAUserKeepsItsPermissionsAndTheirTokens() {
        db.createUser(new CosmosUserProperties().setId("carol"));
        String token = adminAsync.getDatabase("auth").getUser("carol").createPermission(new CosmosPermissionProperties()
                .setId("p").setPermissionMode(PermissionMode.READ).setContainerName("mine"), null).block()
                .getProperties().getToken();

        // the SDK sends the replace to the user's _self, a rid-based link
        CosmosUserProperties carol = db.getUser("carol").read().getProperties();
        CosmosUserResponse renamed = db.getUser("carol").replace(carol.setId("caroline"));
        assertThat(renamed.getStatusCode()).isEqualTo(200);
        assertThat(renamed.getProperties().getId()).isEqualTo("caroline");
        assertStatus(() -> db.getUser("carol").read(), 404);
        assertThat(user("caroline").readAllPermissions().map(CosmosPermissionProperties::getId).collectList().block())
                .containsExactly("p");
        try (CosmosClient c = tokenClient(token)) {
            assertThat(c.getDatabase("auth").getContainer("mine").readItem("seed", new PartitionKey("A"),
                    ObjectNode.class).getStatusCode()).isEqualTo(200);
        }
        assertStatus(() -> db.getUser("caroline").replace(carol.setId("alice")), 409);
    }

    @Test
    void renamingAPermissionKeepsItsToken() {
        String token = token(new CosmosPermissionProperties().setId("before").setPermissionMode(PermissionMode.READ)
                .setContainerName("mine"));
        token(new CosmosPermissionProperties().setId("taken").setPermissionMode(PermissionMode.READ)
                .setContainerName("theirs"));

        // the SDK sends the replace to the permission's _self, a rid-based link
        CosmosPermissionProperties before = user("alice").getPermission("before").read(null).block().getProperties();
        CosmosPermissionResponse renamed = user("alice").getPermission("before")
                .replace(before.setId("after"), null).block();
        assertThat(renamed.getStatusCode()).isEqualTo(200);
        assertThat(renamed.getProperties().getId()).isEqualTo("after");
        assertStatus(() -> user("alice").getPermission("before").read(null).block(), 404);
        try (CosmosClient c = tokenClient(token)) {
            assertThat(c.getDatabase("auth").getContainer("mine").readItem("seed", new PartitionKey("A"),
                    ObjectNode.class).getStatusCode()).isEqualTo(200);
        }
        assertStatus(() -> user("alice").getPermission("after").replace(before.setId("taken"), null).block(), 409);
    }

    @Test
    void usersAndPermissionsAreListed() {
        db.createUser(new CosmosUserProperties().setId("bob"));
        assertThat(db.readAllUsers().stream().map(CosmosUserProperties::getId).toList()).contains("alice", "bob");
        user("bob").createPermission(new CosmosPermissionProperties().setId("p1")
                .setPermissionMode(PermissionMode.READ).setContainerName("theirs"), null).block();
        List<CosmosPermissionProperties> perms = user("bob").readAllPermissions().collectList().block();
        assertThat(perms).hasSize(1);
        assertThat(perms.get(0).getToken()).startsWith("type=resource&");
        assertThat(perms.get(0).getContainerName()).isEqualTo("theirs");
        db.getUser("bob").delete();
        assertStatus(() -> db.getUser("bob").read(), 404);
    }

    @Test
    void readOnlyKeyReadsButDoesNotWrite() {
        try (CosmosClient ro = t.builder(Keys.emulator().readOnlyPrimary()).buildClient()) {
            CosmosContainer mine = ro.getDatabase("auth").getContainer("mine");
            assertThat(mine.readItem("seed", new PartitionKey("A"), ObjectNode.class).getStatusCode()).isEqualTo(200);
            assertThat(ro.readAllDatabases().stream().count()).isEqualTo(1);
            assertStatus(() -> mine.createItem(doc("ro", "A")), 403);
            assertStatus(() -> mine.deleteItem("seed", new PartitionKey("A"), new CosmosItemRequestOptions()), 403);
            assertStatus(() -> ro.createDatabase("ro-db"), 403);
        }
        try (CosmosClient secondary = t.builder(Keys.emulator().secondary()).buildClient()) {
            secondary.getDatabase("auth").getContainer("mine").upsertItem(doc("by-secondary", "A"));
        }
    }

    @Test
    void wrongKeyIsRefused() {
        String wrong = Keys.emulator().secondary().replace('N', 'Q');
        assertThatThrownBy(() -> t.builder(wrong).buildClient().close())
                .satisfies(e -> assertThat(causeChain(e)).contains("401"));
    }

    private static String causeChain(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable x = e; x != null; x = x.getCause()) {
            sb.append(x).append(x instanceof CosmosException ce ? " status=" + ce.getStatusCode() : "").append('\n');
        }
        return sb.toString();
    }
}
