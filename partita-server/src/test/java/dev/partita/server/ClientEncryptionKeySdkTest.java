package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosClientEncryptionKeyProperties;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.EncryptionKeyWrapMetadata;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A database's client encryption keys ({@code dbs/{db}/clientencryptionkeys}), what client-side encryption in the
 * SDKs stores: created, read, rewrapped (replaced), listed and queried through the Java SDK; the conditional reads and
 * replaces the SDKs' key caches rely on, and who may reach them, over raw HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientEncryptionKeySdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String ALGORITHM = "AEAD_AES_256_CBC_HMAC_SHA256";
    TestServers t;
    CosmosAsyncClient client;
    CosmosAsyncDatabase db;
    RawClient raw;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.asyncClient();
        client.createDatabase("enc").block();
        db = client.getDatabase("enc");
        raw = new RawClient(t.server.endpoint());
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private static CosmosClientEncryptionKeyProperties key(String id, byte[] wrapped, String kek) {
        return new CosmosClientEncryptionKeyProperties(id, ALGORITHM, wrapped,
                new EncryptionKeyWrapMetadata("AZURE_KEY_VAULT", kek, "https://vault/keys/" + kek, "RSA-OAEP"));
    }

    @Test
    void aKeyIsCreatedReadRewrappedListedAndQueried() {
        byte[] wrapped = {1, 2, 3, 4, 5};
        CosmosClientEncryptionKeyProperties created = db.createClientEncryptionKey(key("k1", wrapped, "kek1"))
                .block().getProperties();
        assertThat(created.getWrappedDataEncryptionKey()).isEqualTo(wrapped);
        assertThat(created.getEncryptionKeyWrapMetadata().getName()).isEqualTo("kek1");
        assertThat(created.getETag()).isNotBlank();

        CosmosClientEncryptionKeyProperties read = db.getClientEncryptionKey("k1").read().block().getProperties();
        assertThat(read.getEncryptionAlgorithm()).isEqualTo(ALGORITHM);
        assertThat(read.getWrappedDataEncryptionKey()).isEqualTo(wrapped);

        byte[] rewrapped = {9, 8, 7};
        CosmosClientEncryptionKeyProperties replaced = db.getClientEncryptionKey("k1")
                .replace(key("k1", rewrapped, "kek2")).block().getProperties();
        assertThat(replaced.getWrappedDataEncryptionKey()).isEqualTo(rewrapped);
        assertThat(replaced.getEncryptionKeyWrapMetadata().getName()).isEqualTo("kek2");
        assertThat(replaced.getETag()).isNotEqualTo(created.getETag());

        db.createClientEncryptionKey(key("k2", wrapped, "kek1")).block();
        List<String> all = db.readAllClientEncryptionKeys().collectList().block().stream()
                .map(CosmosClientEncryptionKeyProperties::getId).toList();
        assertThat(all).contains("k1", "k2");
        List<String> queried = db.queryClientEncryptionKeys("SELECT * FROM c WHERE c.keyWrapMetadata.name = 'kek2'")
                .collectList().block().stream().map(CosmosClientEncryptionKeyProperties::getId).toList();
        assertThat(queried).containsExactly("k1");
    }

    @Test
    void aTakenIdIs409AndAMissingKey404() {
        db.createClientEncryptionKey(key("dup", new byte[] {1}, "kek")).block();
        assertThatThrownBy(() -> db.createClientEncryptionKey(key("dup", new byte[] {2}, "kek")).block())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(409));
        assertThatThrownBy(() -> db.getClientEncryptionKey("absent").read().block())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    }

    @Test
    void conditionalReadsAndReplacesAnswerAsTheSdksCachesExpect() throws Exception {
        String body = "{\"id\":\"cond\",\"encryptionAlgorithm\":\"" + ALGORITHM + "\",\"wrappedDataEncryptionKey\":"
                + "\"AQID\",\"keyWrapMetadata\":{\"type\":\"AZURE_KEY_VAULT\",\"name\":\"kek\",\"value\":\"v\","
                + "\"algorithm\":\"RSA-OAEP\"}}";
        HttpResponse<String> created = raw.call("POST", "/dbs/enc/clientencryptionkeys")
                .signed("clientencryptionkeys", "dbs/enc").body(body).send();
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode json = JSON.readTree(created.body());
        String etag = json.get("_etag").asText();
        assertThat(json.get("_self").asText()).isEqualTo("dbs/" + t.engine.readDatabase("enc").rid()
                + "/clientencryptionkeys/" + json.get("_rid").asText() + "/");
        HttpResponse<String> byRid = raw.call("GET", "/" + json.get("_self").asText())
                .signed("clientencryptionkeys", json.get("_rid").asText()).send();
        assertThat(byRid.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(byRid.body()).get("id").asText()).isEqualTo("cond");

        assertThat(raw.call("GET", "/dbs/enc/clientencryptionkeys/cond")
                .signed("clientencryptionkeys", "dbs/enc/clientencryptionkeys/cond").header("If-None-Match", etag)
                .send().statusCode()).isEqualTo(304);
        assertThat(raw.call("PUT", "/dbs/enc/clientencryptionkeys/cond")
                .signed("clientencryptionkeys", "dbs/enc/clientencryptionkeys/cond").header("If-Match", "\"stale\"")
                .body(body).send().statusCode()).isEqualTo(412);
        assertThat(raw.call("PUT", "/dbs/enc/clientencryptionkeys/cond")
                .signed("clientencryptionkeys", "dbs/enc/clientencryptionkeys/cond").header("If-Match", etag)
                .body(body).send().statusCode()).isEqualTo(200);
        // the old etag no longer matches: the key is read again in full
        assertThat(raw.call("GET", "/dbs/enc/clientencryptionkeys/cond")
                .signed("clientencryptionkeys", "dbs/enc/clientencryptionkeys/cond").header("If-None-Match", etag)
                .send().statusCode()).isEqualTo(200);
        assertThat(raw.call("DELETE", "/dbs/enc/clientencryptionkeys/cond")
                .signed("clientencryptionkeys", "dbs/enc/clientencryptionkeys/cond").send().statusCode())
                .isEqualTo(405);
    }

    @Test
    void aKeyWithoutItsWrappedKeyOrMetadataIs400() throws Exception {
        for (String body : List.of("{\"id\":\"bad1\",\"encryptionAlgorithm\":\"" + ALGORITHM + "\"}",
                "{\"id\":\"bad2\",\"encryptionAlgorithm\":\"" + ALGORITHM + "\",\"wrappedDataEncryptionKey\":\"!!\","
                        + "\"keyWrapMetadata\":{\"name\":\"k\",\"value\":\"v\"}}",
                "{\"id\":\"bad3\",\"encryptionAlgorithm\":\"" + ALGORITHM + "\",\"wrappedDataEncryptionKey\":\"AQ==\"}")) {
            HttpResponse<String> r = raw.call("POST", "/dbs/enc/clientencryptionkeys")
                    .signed("clientencryptionkeys", "dbs/enc").body(body).send();
            assertThat(r.statusCode()).as(body).isEqualTo(400);
        }
    }

    @Test
    void aResourceTokenReadsItsDatabasesKeysAndWritesNone() throws Exception {
        db.createClientEncryptionKey(key("shared", new byte[] {4, 2}, "kek")).block();
        db.createContainer("items", "/pk").block();
        db.createUser(new CosmosUserProperties().setId("alice")).block();
        String token = db.getUser("alice").createPermission(new CosmosPermissionProperties().setId("items-all")
                .setPermissionMode(PermissionMode.ALL).setContainerName("items"), null).block().getProperties()
                .getToken();
        HttpResponse<String> read = raw.call("GET", "/dbs/enc/clientencryptionkeys/shared").unsigned().header("authorization", encoded(token)).send();
        assertThat(read.statusCode()).isEqualTo(200);
        JsonNode json = JSON.readTree(read.body());
        assertThat(json.get("wrappedDataEncryptionKey").asText()).isEqualTo("BAI=");

        String body = "{\"id\":\"mine\",\"encryptionAlgorithm\":\"" + ALGORITHM + "\",\"wrappedDataEncryptionKey\":"
                + "\"AQ==\",\"keyWrapMetadata\":{\"name\":\"k\",\"value\":\"v\"}}";
        assertThat(raw.call("POST", "/dbs/enc/clientencryptionkeys").unsigned().header("authorization", encoded(token)).body(body).send().statusCode())
                .isEqualTo(403);
        assertThat(raw.call("PUT", "/dbs/enc/clientencryptionkeys/shared").unsigned().header("authorization", encoded(token)).body(body).send()
                .statusCode()).isEqualTo(403);
    }

    private static String encoded(String token) {
        return URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    @Test
    void aDeletedDatabaseTakesItsKeys() {
        client.createDatabase("gone").block();
        client.getDatabase("gone").createClientEncryptionKey(key("k", new byte[] {1}, "kek")).block();
        client.getDatabase("gone").delete().block();
        client.createDatabase("gone").block();
        assertThat(client.getDatabase("gone").readAllClientEncryptionKeys().collectList().block()).isEmpty();
        client.getDatabase("gone").delete().block();
    }
}
