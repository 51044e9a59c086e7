package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The change feed's wire contract (feeds-batch.md §1–3) through a raw HTTP client: the etag is a quoted decimal LSN
 * from the same counter as the session token, 304 is the end of the feed, the wire-format header wraps documents, and
 * bad requests get the service's error shape.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChangeFeedWireTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    RawClient raw;

    @BeforeAll
    void start() {
        t = TestServers.http();
        raw = new RawClient(t.server.endpoint());
        assertThat(raw.call("POST", "/dbs").signed("dbs", "").body("{\"id\":\"db\"}").send().statusCode())
                .isEqualTo(201);
        assertThat(raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db")
                .body("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}")
                .send().statusCode()).isEqualTo(201);
        for (int i = 0; i < 3; i++) {
            assertThat(raw.call("POST", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                    .header("x-ms-documentdb-partitionkey", "[\"p" + i + "\"]")
                    .body("{\"id\":\"d" + i + "\",\"pk\":\"p" + i + "\"}").send().statusCode()).isEqualTo(201);
        }
    }

    @AfterAll
    void stop() {
        t.close();
    }

    RawClient.Call feed(String aIm) {
        return raw.call("GET", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c").header("A-IM", aIm)
                .header("x-ms-documentdb-partitionkeyrangeid", "0");
    }

    static long sessionLsn(HttpResponse<String> r) {
        String token = r.headers().firstValue("x-ms-session-token").orElseThrow();
        assertThat(token).startsWith("0:-1#");
        return Long.parseLong(token.substring(token.indexOf('#') + 1));
    }

    @Test
    void pagesEtagsAnd304() throws Exception {
        HttpResponse<String> first = feed("Incremental Feed").header("x-ms-max-item-count", "2").send();
        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(first.body());
        assertThat(body.get("_count").asInt()).isEqualTo(2);
        assertThat(body.get("Documents").get(1).get("_lsn").asLong()).isEqualTo(2);
        assertThat(first.headers().firstValue("etag")).hasValue("\"2\"");
        assertThat(first.headers().firstValue("x-ms-item-count")).hasValue("2");
        assertThat(first.headers().firstValue("x-ms-alt-content-path")).hasValue("dbs/db/colls/c");
        assertThat(sessionLsn(first)).isEqualTo(3);

        HttpResponse<String> second = feed("Incremental Feed").header("If-None-Match", "\"2\"").send();
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(second.body()).get("Documents").get(0).get("id").asText()).isEqualTo("d2");
        assertThat(second.headers().firstValue("etag")).hasValue("\"3\"");

        HttpResponse<String> end = feed("Incremental Feed").header("If-None-Match", "\"3\"").send();
        assertThat(end.statusCode()).isEqualTo(304);
        assertThat(end.body()).isEmpty();
        assertThat(end.headers().firstValue("etag")).hasValue("\"" + sessionLsn(end) + "\"");

        HttpResponse<String> now = feed("Full-Fidelity Feed").header("If-None-Match", "*")
                .header("x-ms-cosmos-changefeed-wire-format-version", "2021-09-15").send();
        assertThat(now.statusCode()).isEqualTo(304);
        assertThat(now.headers().firstValue("etag")).hasValue("\"3\"");
    }

    @Test
    void theWireFormatVersionWrapsLatestVersionDocuments() throws Exception {
        HttpResponse<String> r = feed("Incremental Feed")
                .header("x-ms-cosmos-changefeed-wire-format-version", "2021-09-15").send();
        JsonNode change = JSON.readTree(r.body()).get("Documents").get(0);
        assertThat(change.get("current").get("id").asText()).isEqualTo("d0");
        assertThat(change.get("metadata").get("operationType").asText()).isEqualTo("create");
        assertThat(change.get("metadata").get("lsn").asLong()).isEqualTo(1);
    }

    @Test
    void badRequestsAndGoneRanges() throws Exception {
        HttpResponse<String> aIm = feed("Sometimes Feed").send();
        assertThat(aIm.statusCode()).isEqualTo(400);
        HttpResponse<String> etag = feed("Incremental Feed").header("If-None-Match", "\"lsn-2\"").send();
        assertThat(etag.statusCode()).isEqualTo(400);
        HttpResponse<String> date = feed("Incremental Feed").header("If-Modified-Since", "yesterday").send();
        assertThat(date.statusCode()).isEqualTo(400);
        HttpResponse<String> avadFromStart = feed("Full-Fidelity Feed").send();
        assertThat(avadFromStart.statusCode()).isEqualTo(400);
        HttpResponse<String> unknown = raw.call("GET", "/dbs/db/colls/c/docs").signed("docs", "dbs/db/colls/c")
                .header("A-IM", "Incremental Feed").header("x-ms-documentdb-partitionkeyrangeid", "7").send();
        assertThat(unknown.statusCode()).isEqualTo(410);
        assertThat(unknown.headers().firstValue("x-ms-substatus")).hasValue("1002");
        assertThat(JSON.readTree(unknown.body()).get("code").asText()).isNotBlank();
    }
}
