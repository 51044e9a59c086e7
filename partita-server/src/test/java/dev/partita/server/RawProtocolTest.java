package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Bad input and protocol details through a raw HTTP client with correct signatures. Nothing answers 500. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RawProtocolTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final AtomicBoolean FAIL_STORE = new AtomicBoolean();

    Engine engine;
    PartitaServer server;
    RawClient raw;
    String collRid;
    String dbRid;

    @BeforeAll
    void start() throws Exception {
        engine = Engine.open(new FlakyStore(new MemoryStore()), Clock.systemUTC(), Limits.DEFAULTS, (c, i) -> {
            throw ServiceException.badRequest("patch conditions need the query engine");
        });
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        raw = new RawClient(server.endpoint());
        assertThat(raw.call("POST", "/dbs").signed("dbs", "").body("{\"id\":\"db\"}").send().statusCode())
                .isEqualTo(201);
        HttpResponse<String> c = raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db")
                .body("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}").send();
        assertThat(c.statusCode()).isEqualTo(201);
        collRid = JSON.readTree(c.body()).get("_rid").asText();
        dbRid = JSON.readTree(c.body()).get("_self").asText().split("/")[1];
    }

    @AfterAll
    void stop() {
        server.close();
        engine.close();
    }

    @AfterEach
    void healthy() {
        FAIL_STORE.set(false);
    }

    /** The error shape every error has; never a 500, never a stack trace. */
    static JsonNode error(HttpResponse<String> r, int status) throws Exception {
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(r.headers().firstValue("x-ms-activity-id")).isPresent();
        assertThat(r.headers().firstValue("x-ms-substatus")).isPresent();
        assertThat(r.headers().firstValue("content-length")).hasValue(Integer.toString(r.body().getBytes(
                java.nio.charset.StandardCharsets.UTF_8).length));
        assertThat(r.body()).doesNotContain("\tat ").doesNotContain("Exception");
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.get("code").asText()).isNotBlank();
        assertThat(body.get("message").asText()).isNotBlank();
        return body;
    }

    @Test
    void unknownPathsAre404WithAJsonBody() throws Exception {
        assertThat(error(raw.call("GET", "/nope").signed("nope", "").send(), 404).get("code").asText())
                .isEqualTo("NotFound");
        error(raw.call("GET", "/dbs/db/colls/c/attachments").signed("attachments", "dbs/db/colls/c").send(), 404);
        error(raw.call("GET", "/dbs/missing").signed("dbs", "dbs/missing").send(), 404);
        error(raw.call("GET", "/dbs/db/colls/missing/docs/x").signed("docs", "dbs/db/colls/missing/docs/x")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").send(), 404);
    }

    @Test
    void badPartitionKeyHeadersAre400() throws Exception {
        for (String pk : new String[] {"not json", "{\"a\":1}", "[\"a\",\"b\"]", "[[1,2]]", "[\"a\""}) {
            error(raw.call("GET", "/dbs/db/colls/c/docs/x").signed("docs", "dbs/db/colls/c/docs/x")
                    .header("x-ms-documentdb-partitionkey", pk).send(), 400);
        }
        error(raw.call("GET", "/dbs/db/colls/c/docs/x").signed("docs", "dbs/db/colls/c/docs/x").send(), 400);
    }

    @Test
    void bodiesThatAreNotJsonAre400() throws Exception {
        error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").body("{not json").send(), 400);
        error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").body("[1,2]").send(), 400);
        error(raw.call("POST", "/dbs").signed("dbs", "").body("nope").send(), 400);
        error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-cosmos-is-batch-request", "true").header("x-ms-cosmos-batch-atomic", "true")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").body("{\"not\":\"an array\"}").send(), 400);
        error(raw.call("PUT", "/offers/AAAB").signed("offers", "AAAB").body("{").send(), 400);
    }

    @Test
    void oversizeBodiesAre413BeforeBuffering() throws Exception {
        byte[] big = new byte[Limits.DEFAULTS.maxRequestBytes() + 128 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        big[0] = '{';
        big[big.length - 1] = '}';
        JsonNode e = error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").body(big).send(), 413);
        assertThat(e.get("code").asText()).isEqualTo("RequestEntityTooLarge");
        // the server is still fine afterwards
        assertThat(raw.call("GET", "/dbs/db").signed("dbs", "dbs/db").send().statusCode()).isEqualTo(200);
    }

    @Test
    void authorizationFailuresAre401() throws Exception {
        error(raw.call("GET", "/dbs/db").unsigned().send(), 401);
        error(raw.call("GET", "/dbs/db").signed("dbs", "dbs/other").send(), 401);
        error(raw.call("GET", "/dbs/db").unsigned().header("authorization", "type%3Dmaster").send(), 401);
        error(raw.call("GET", "/dbs/db").unsigned().header("authorization", "type%3Daad%26ver%3D1.0%26sig%3Dx").send(),
                401);
        String old = RawClient.DATE.format(ZonedDateTime.now(ZoneOffset.UTC).minusMinutes(20));
        error(raw.call("GET", "/dbs/db").signed("dbs", "dbs/db").date(old).send(), 401);
        error(raw.call("GET", "/dbs/db").signed("dbs", "dbs/db").date("yesterday").send(), 401);
        error(raw.call("GET", "/dbs/db").signed("dbs", "dbs/db").date(null).send(), 401);
        RawClient readOnly = new RawClient(server.endpoint());
        readOnly.key = Keys.emulator().readOnlyPrimary();
        assertThat(readOnly.call("GET", "/dbs/db").signed("dbs", "dbs/db").send().statusCode()).isEqualTo(200);
        assertThat(readOnly.call("POST", "/dbs").signed("dbs", "").header("x-ms-documentdb-isquery", "true")
                .header("Content-Type", "application/query+json").body("{\"query\":\"SELECT * FROM root r\"}")
                .send().statusCode()).isEqualTo(200);
        error(readOnly.call("POST", "/dbs").signed("dbs", "").body("{\"id\":\"x\"}").send(), 403);
    }

    @Test
    void ridBasedPathsWork() throws Exception {
        HttpResponse<String> db = raw.call("GET", "/dbs/" + dbRid).signed("dbs", dbRid).send();
        assertThat(db.statusCode()).isEqualTo(200);
        HttpResponse<String> coll = raw.call("GET", "/dbs/" + dbRid + "/colls/" + collRid).signed("colls", collRid)
                .send();
        assertThat(coll.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(coll.body()).get("id").asText()).isEqualTo("c");
        assertThat(coll.headers().firstValue("x-ms-alt-content-path")).hasValue("dbs/db");
        assertThat(coll.headers().firstValue("x-ms-content-path")).hasValue(collRid);
    }

    @Test
    void anItemIsAddressedByItsSelfLink() throws Exception {
        // the Java SDK's ResourceTokenTest reads items at their _self (dbs/{rid}/colls/{rid}/docs/{rid})
        JsonNode created = JSON.readTree(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-partitionkey", "[\"s\"]").body("{\"id\":\"selfie\",\"pk\":\"s\",\"v\":1}")
                .send().body());
        String self = created.get("_self").asText();
        String docRid = created.get("_rid").asText();
        HttpResponse<String> read = raw.call("GET", "/" + self).signed("docs", docRid)
                .header("x-ms-documentdb-partitionkey", "[\"s\"]").send();
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(read.body()).get("id").asText()).isEqualTo("selfie");
        HttpResponse<String> replaced = raw.call("PUT", "/" + self).signed("docs", docRid)
                .header("x-ms-documentdb-partitionkey", "[\"s\"]").body("{\"id\":\"selfie\",\"pk\":\"s\",\"v\":2}").send();
        assertThat(replaced.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(replaced.body()).get("v").asInt()).isEqualTo(2);
        // another logical partition holds no item with that rid
        error(raw.call("GET", "/" + self).signed("docs", docRid).header("x-ms-documentdb-partitionkey", "[\"t\"]")
                .send(), 404);
        // ... and a session read of it that has not caught up says so (404/1002), as at a named path
        String token = replaced.headers().firstValue("x-ms-session-token").orElseThrow();
        String ahead = token.substring(0, token.indexOf('#') + 1) + "999999999";
        HttpResponse<String> behind = raw.call("GET", "/" + self).signed("docs", docRid)
                .header("x-ms-documentdb-partitionkey", "[\"t\"]").header("x-ms-session-token", ahead).send();
        error(behind, 404);
        assertThat(behind.headers().firstValue("x-ms-substatus")).hasValue("1002");
        HttpResponse<String> deleted = raw.call("DELETE", "/" + self).signed("docs", docRid)
                .header("x-ms-documentdb-partitionkey", "[\"s\"]").send();
        assertThat(deleted.statusCode()).isEqualTo(204);
        error(raw.call("GET", "/" + self).signed("docs", docRid).header("x-ms-documentdb-partitionkey", "[\"s\"]")
                .send(), 404);
    }

    @Test
    void itemWritesWithMinimalReturnHaveNoBodyButAllHeaders() throws Exception {
        HttpResponse<String> r = raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-partitionkey", "[\"m\"]").header("Prefer", "return=minimal")
                .body("{\"id\":\"min\",\"pk\":\"m\"}").send();
        assertThat(r.statusCode()).isEqualTo(201);
        assertThat(r.body()).isEmpty();
        assertThat(r.headers().firstValue("content-length")).hasValue("0");
        assertThat(r.headers().firstValue("etag")).isPresent();
        assertThat(r.headers().firstValue("x-ms-session-token").orElseThrow()).matches("\\d+:-1#\\d+");
        assertThat(r.headers().firstValue("x-ms-request-charge")).isPresent();
        assertThat(r.headers().firstValue("x-ms-alt-content-path")).hasValue("dbs/db/colls/c");
        assertThat(r.headers().firstValue("x-ms-content-path")).hasValue(collRid);
        assertThat(r.headers().firstValue("date")).isPresent();
        assertThat(r.headers().firstValue("x-ms-gatewayversion")).isPresent();

        HttpResponse<String> read = raw.call("GET", "/dbs/db/colls/c/docs/min").signed("docs", "dbs/db/colls/c/docs/min")
                .header("x-ms-documentdb-partitionkey", "[\"m\"]").send();
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(read.body()).get("_etag").asText()).isEqualTo(r.headers().firstValue("etag")
                .orElseThrow());
        HttpResponse<String> deleted = raw.call("DELETE", "/dbs/db/colls/c/docs/min")
                .signed("docs", "dbs/db/colls/c/docs/min").header("x-ms-documentdb-partitionkey", "[\"m\"]").send();
        assertThat(deleted.statusCode()).isEqualTo(204);
        // Netty's encoder leaves Content-Length off a 204, as RFC 9110 §8.6 requires; the SDK is fine with it
        assertThat(deleted.headers().firstValue("content-length").orElse("0")).isEqualTo("0");
        assertThat(deleted.body()).isEmpty();
    }

    @Test
    void staleContainerRidIs400With1024() throws Exception {
        JsonNode e = error(raw.call("GET", "/dbs/db/colls/c/docs/x").signed("docs", "dbs/db/colls/c/docs/x")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]")
                .header("x-ms-cosmos-intended-collection-rid", "AAAAAYAAAHc=").send(), 400);
        assertThat(e.get("code").asText()).isEqualTo("BadRequest");
        HttpResponse<String> r = raw.call("GET", "/dbs/db/colls/c/docs/x").signed("docs", "dbs/db/colls/c/docs/x")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]")
                .header("x-ms-cosmos-intended-collection-rid", "AAAAAYAAAHc=").send();
        assertThat(r.headers().firstValue("x-ms-substatus")).hasValue("1024");
    }

    @Test
    void partitionKeyRangesAreAnIncrementalFeedAndGoneRangesAre410() throws Exception {
        raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db")
                .body("{\"id\":\"split\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}").send();
        ContainerInfo c = engine.readContainer("db", "split");
        String path = "/dbs/" + c.databaseRid() + "/colls/" + c.rid() + "/pkranges";
        HttpResponse<String> first = raw.call("GET", path).signed("pkranges", c.rid())
                .header("A-IM", "Incremental Feed").header("x-ms-max-item-count", "-1").send();
        assertThat(first.statusCode()).isEqualTo(200);
        String etag = first.headers().firstValue("etag").orElseThrow();
        JsonNode ranges = JSON.readTree(first.body()).get("PartitionKeyRanges");
        assertThat(ranges).hasSize(1);
        assertThat(ranges.get(0).get("minInclusive").asText()).isEmpty();
        assertThat(ranges.get(0).get("maxExclusive").asText()).isEqualTo("FF");

        HttpResponse<String> same = raw.call("GET", path).signed("pkranges", c.rid())
                .header("A-IM", "Incremental Feed").header("If-None-Match", etag).send();
        assertThat(same.statusCode()).isEqualTo(304);
        assertThat(same.headers().firstValue("etag")).hasValue(etag);
        assertThat(same.headers().firstValue("content-length")).hasValue("0");

        for (int i = 0; i < 20; i++) {
            raw.call("POST", "/dbs/db/colls/split/docs").signed("docs", "dbs/db/colls/split")
                    .header("x-ms-documentdb-partitionkey", "[\"k" + i + "\"]")
                    .body("{\"id\":\"i" + i + "\",\"pk\":\"k" + i + "\"}").send();
        }
        engine.split(c, "0");
        HttpResponse<String> after = raw.call("GET", path).signed("pkranges", c.rid())
                .header("A-IM", "Incremental Feed").header("If-None-Match", etag).send();
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.headers().firstValue("etag").orElseThrow()).isNotEqualTo(etag);
        JsonNode children = JSON.readTree(after.body()).get("PartitionKeyRanges");
        assertThat(children).hasSize(2);
        for (JsonNode child : children) {
            assertThat(child.get("parents").get(0).asText()).isEqualTo("0");
        }

        JsonNode gone = error(raw.call("POST", "/dbs/db/colls/split/docs").signed("docs", "dbs/db/colls/split")
                .header("x-ms-cosmos-is-batch-request", "true").header("x-ms-cosmos-batch-atomic", "false")
                .header("x-ms-documentdb-partitionkeyrangeid", "0")
                .body("[{\"operationType\":\"Read\",\"id\":\"i1\",\"partitionKey\":\"[\\\"k1\\\"]\"}]").send(), 410);
        assertThat(gone.get("code").asText()).isEqualTo("Gone");
        HttpResponse<String> again = raw.call("POST", "/dbs/db/colls/split/docs").signed("docs", "dbs/db/colls/split")
                .header("x-ms-cosmos-is-batch-request", "true").header("x-ms-cosmos-batch-atomic", "false")
                .header("x-ms-documentdb-partitionkeyrangeid", "0").body("[]").send();
        assertThat(again.headers().firstValue("x-ms-substatus")).hasValue("1002");
    }

    @Test
    void theAccountPointsBackAtTheHostUsed() throws Exception {
        HttpResponse<String> r = raw.call("GET", "/").signed("", "").send();
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode account = JSON.readTree(r.body());
        assertThat(account.get("writableLocations").get(0).get("databaseAccountEndpoint").asText())
                .isEqualTo(server.endpoint());
        assertThat(account.get("queryEngineConfiguration").isTextual()).isTrue();
        assertThat(account.get("userConsistencyPolicy").get("defaultConsistencyLevel").asText()).isEqualTo("Session");
    }

    @Test
    void wrongMethodsAre405() throws Exception {
        error(raw.call("PATCH", "/dbs/db").signed("dbs", "dbs/db").body("{}").send(), 405);
        error(raw.call("DELETE", "/").signed("", "").send(), 405);
    }

    @Test
    void unexpectedFailuresAre500WithOnlyTheActivityId() throws Exception {
        FAIL_STORE.set(true);
        HttpResponse<String> r = raw.call("GET", "/dbs/db/colls/c/docs/x").signed("docs", "dbs/db/colls/c/docs/x")
                .header("x-ms-documentdb-partitionkey", "[\"a\"]").send();
        JsonNode e = error(r, 500);
        assertThat(e.get("code").asText()).isEqualTo("InternalServerError");
        assertThat(e.get("message").asText()).contains(r.headers().firstValue("x-ms-activity-id").orElseThrow())
                .doesNotContain("secret");
    }

    @Test
    void badQueriesAreJson400sThatPointAtTheProblem() throws Exception {
        JsonNode e = error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-isquery", "true").header("Content-Type", "application/query+json")
                .body("{\"query\":\"SELECT * FROM c WHERE\"}").send(), 400);
        // the problem's place is the error's location: 0-based offsets into the query text (here its end)
        assertThat(e.get("message").asText()).contains("\"location\":{\"start\":21,\"end\":21}")
                .contains("\"code\":\"SC1001\"");
        error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-isquery", "true").header("Content-Type", "application/query+json")
                .body("{\"parameters\":[]}").send(), 400);
        error(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("x-ms-documentdb-isquery", "true").header("Content-Type", "application/query+json")
                .header("x-ms-continuation", "not-a-token")
                .body("{\"query\":\"SELECT * FROM c\"}").send(), 400);
    }

    /**
     * The JavaScript SDK's first request for a query names no range: the gateway serves what it can stream and sends
     * a query that needs the SDK's pipeline across partitions back with its plan (400/1004, additionalErrorInfo),
     * as the service does; the SDK then runs the plan range by range and pays what the ranges charge.
     */
    @Test
    void aCrossPartitionQueryThatNeedsThePipelineComesBackWithItsPlan() throws Exception {
        assertThat(raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db").header("x-ms-offer-throughput", "24000")
                .body("{\"id\":\"wide\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}")
                .send().statusCode()).isEqualTo(201);
        for (String q : List.of("SELECT * FROM c ORDER BY c.n", "SELECT VALUE COUNT(1) FROM c", "SELECT TOP 2 * FROM c",
                "SELECT DISTINCT c.n FROM c", "SELECT c.n, COUNT(1) AS k FROM c GROUP BY c.n",
                "SELECT * FROM c OFFSET 1 LIMIT 2")) {
            HttpResponse<String> r = query("wide", q, Map.of());
            JsonNode e = error(r, 400);
            assertThat(r.headers().firstValue("x-ms-substatus")).as(q).hasValue("1004");
            assertThat(e.get("message").asText()).startsWith("The provided cross partition query can not be directly"
                    + " served by the gateway.");
            assertThat(JSON.readTree(e.get("additionalErrorInfo").asText()).get("queryInfo").isObject()).isTrue();
        }
        // served: streamable, pinned to one key, named range, one-partition container, and the explorer's request
        assertThat(query("wide", "SELECT * FROM c WHERE c.n > 1", Map.of()).statusCode()).isEqualTo(200);
        assertThat(query("wide", "SELECT * FROM c WHERE c.pk = 'a' ORDER BY c.n", Map.of()).statusCode())
                .isEqualTo(200);
        assertThat(query("wide", "SELECT * FROM c ORDER BY c.n", Map.of("x-ms-documentdb-partitionkeyrangeid", "0"))
                .statusCode()).isEqualTo(200);
        assertThat(query("c", "SELECT * FROM c ORDER BY c.n", Map.of()).statusCode()).isEqualTo(200);
        assertThat(query("wide", "SELECT * FROM c ORDER BY c.n", Map.of("x-partita-whole-container-query", "true"))
                .statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> query(String container, String q, Map<String, String> headers) throws Exception {
        var call = raw.call("POST", "/dbs/db/colls/" + container + "/docs").signed("docs", "dbs/db/colls/" + container)
                .header("x-ms-documentdb-isquery", "true").header("Content-Type", "application/query+json")
                .header("x-ms-documentdb-query-enablecrosspartition", "true");
        headers.forEach(call::header);
        return call.body(JSON.writeValueAsString(Map.of("query", q))).send();
    }

    /** A store whose item reads fail with an unexpected exception while {@link #FAIL_STORE} is set. */
    static final class FlakyStore extends ForwardingStore {
        FlakyStore(Store inner) {
            super(inner);
        }

        @Override
        public byte[] get(byte[] key) {
            if (FAIL_STORE.get() && key.length > 0 && key[0] == 0x02) {
                throw new IllegalStateException("disk on fire; secret document content");
            }
            return inner.get(key);
        }
    }
}
