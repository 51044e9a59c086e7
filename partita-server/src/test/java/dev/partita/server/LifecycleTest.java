package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosAsyncDatabase;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosDatabaseProperties;
import com.azure.cosmos.models.CosmosDatabaseResponse;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Database and container lifecycle through the real SDK, over HTTP and HTTPS, with the sync and async clients. */
class LifecycleTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path certs;

    private TestServers servers(boolean https) {
        return https ? TestServers.https(certs) : TestServers.http();
    }

    @ParameterizedTest(name = "https={0}")
    @ValueSource(booleans = {false, true})
    void syncClientLifecycle(boolean https) {
        try (TestServers t = servers(https); CosmosClient client = t.client()) {
            CosmosDatabaseResponse created = client.createDatabaseIfNotExists("db1");
            assertThat(created.getStatusCode()).isEqualTo(201);
            assertThat(client.createDatabaseIfNotExists("db1").getStatusCode()).isEqualTo(200);
            CosmosDatabase db = client.getDatabase("db1");
            assertThat(db.read().getProperties().getResourceId()).isNotBlank();

            PartitionKeyDefinition def = new PartitionKeyDefinition();
            def.setPaths(List.of("/pk"));
            def.setVersion(PartitionKeyDefinitionVersion.V2);
            CosmosContainerResponse cr = db.createContainerIfNotExists(new CosmosContainerProperties("c1", def));
            assertThat(cr.getStatusCode()).isEqualTo(201);
            assertThat(db.createContainerIfNotExists("c1", "/pk").getStatusCode()).isEqualTo(200);
            assertThatThrownBy(() -> db.createContainer("c1", "/pk"))
                    .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(409));
            db.createContainer("c2", "/id");

            CosmosContainer c = db.getContainer("c1");
            CosmosContainerProperties props = c.read().getProperties();
            assertThat(props.getPartitionKeyDefinition().getPaths()).containsExactly("/pk");
            assertThat(props.getPartitionKeyDefinition().getVersion()).isEqualTo(PartitionKeyDefinitionVersion.V2);
            props.setDefaultTimeToLiveInSeconds(3600);
            assertThat(c.replace(props).getProperties().getDefaultTimeToLiveInSeconds()).isEqualTo(3600);

            assertThat(client.readAllDatabases().stream().map(CosmosDatabaseProperties::getId).toList())
                    .containsExactly("db1");
            assertThat(client.queryDatabases("SELECT * FROM root r WHERE r.id = 'db1'", null).stream().count())
                    .isEqualTo(1);
            assertThat(client.queryDatabases("SELECT * FROM root r WHERE r.id = 'nope'", null).stream().count())
                    .isZero();
            assertThat(db.readAllContainers().stream().map(CosmosContainerProperties::getId)
                    .collect(Collectors.toSet())).containsExactlyInAnyOrder("c1", "c2");

            ObjectNode doc = JSON.createObjectNode().put("id", "a").put("pk", "p");
            c.createItem(doc);
            CosmosItemResponse<ObjectNode> read = c.readItem("a", new PartitionKey("p"), ObjectNode.class);
            assertThat(read.getItem().get("_etag").asText()).isEqualTo(read.getETag());

            c.delete();
            assertThatThrownBy(c::read)
                    .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
            db.delete();
            assertThatThrownBy(db::read)
                    .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
            assertThat(client.readAllDatabases().stream().count()).isZero();
        }
    }

    @ParameterizedTest(name = "https={0}")
    @ValueSource(booleans = {false, true})
    void asyncClientLifecycle(boolean https) {
        try (TestServers t = servers(https); CosmosAsyncClient client = t.asyncClient()) {
            assertThat(client.createDatabaseIfNotExists("adb").block().getStatusCode()).isEqualTo(201);
            CosmosAsyncDatabase db = client.getDatabase("adb");
            db.createContainerIfNotExists("c", "/pk").block();
            CosmosAsyncContainer c = db.getContainer("c");
            ObjectNode doc = JSON.createObjectNode().put("id", "x").put("pk", "k").put("v", 1);
            assertThat(c.createItem(doc).block().getStatusCode()).isEqualTo(201);
            ObjectNode back = c.readItem("x", new PartitionKey("k"), ObjectNode.class).block().getItem();
            assertThat(back.get("v").asInt()).isEqualTo(1);
            List<String> ids = client.readAllDatabases().map(CosmosDatabaseProperties::getId).collectList().block();
            assertThat(ids).containsExactly("adb");
            c.delete().block();
            db.delete().block();
        }
    }

    @Test
    void httpsExportsAndReusesItsCertificate() throws Exception {
        String first;
        try (TestServers t = TestServers.https(certs)) {
            assertThat(t.server.endpoint()).startsWith("https://localhost:");
            assertThat(t.server.certificatePem()).exists();
            first = Files.readString(t.server.certificatePem());
            assertThat(first).startsWith("-----BEGIN CERTIFICATE-----");
        }
        try (TestServers t = TestServers.https(certs)) {
            assertThat(Files.readString(t.server.certificatePem())).isEqualTo(first);
        }
        try (TestServers t = TestServers.https(certs)) {
            // plain HTTP is understood on the HTTPS port too, and the account then advertises http://
            RawClient plain = new RawClient("http://localhost:" + t.server.port() + "/");
            var r = plain.call("GET", "/").signed("", "").send();
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).get("writableLocations").get(0).get("databaseAccountEndpoint").asText())
                    .isEqualTo("http://localhost:" + t.server.port() + "/");
        }
        try (TestServers t = TestServers.http()) {
            assertThat(t.server.certificatePem()).isNull();
            assertThat(t.server.endpoint()).startsWith("http://localhost:");
        }
    }
}
