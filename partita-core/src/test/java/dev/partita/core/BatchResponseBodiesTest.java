package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.Throughput;
import dev.partita.core.item.BatchResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Which operations of a batch or bulk response carry a {@code resourceBody}: a write leaves its out when the request
 * says {@code Prefer: return=minimal} or when the operation's own {@code minimalReturnPreference} does (the Java SDK
 * sets it per operation and asks for bodies for the whole request as soon as one operation needs one); a read always
 * keeps its body.
 */
class BatchResponseBodiesTest {
    private static final String OPS = "["
            + "{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"p\\\"]\",\"minimalReturnPreference\":true,"
            + "\"resourceBody\":{\"id\":\"a\",\"pk\":\"p\"}},"
            + "{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"p\\\"]\",\"resourceBody\":{\"id\":\"b\",\"pk\":\"p\"}},"
            + "{\"operationType\":\"Read\",\"partitionKey\":\"[\\\"p\\\"]\",\"id\":\"a\",\"minimalReturnPreference\":true}"
            + "]";

    @Test
    void aWriteAskingForMinimalReturnHasNoBodyWhileTheOthersKeepTheirs() {
        JsonNode results = run(false);
        assertThat(results).extracting(r -> r.path("statusCode").asInt()).containsExactly(201, 201, 200);
        assertThat(results.get(0).has("resourceBody")).as("the write that asked for minimal return").isFalse();
        assertThat(results.get(1).path("resourceBody").path("id").asText()).isEqualTo("b");
        assertThat(results.get(2).path("resourceBody").path("id").asText()).as("a read").isEqualTo("a");
        assertThat(results.get(0).path("eTag").asText()).as("the etag stays").isNotEmpty();
    }

    @Test
    void preferReturnMinimalLeavesOutEveryWritesBodyButNotTheReads() {
        JsonNode results = run(true);
        assertThat(results.get(0).has("resourceBody")).isFalse();
        assertThat(results.get(1).has("resourceBody")).isFalse();
        assertThat(results.get(2).path("resourceBody").path("id").asText()).isEqualTo("a");
    }

    private static JsonNode run(boolean preferMinimal) {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-02T20:00:00Z"));
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "test"), Throughput.NONE, 1);
            BatchResult r = engine.container("db", "c").bulk(OPS.getBytes(StandardCharsets.UTF_8),
                    RequestOptions.NONE);
            return Json.parse(new String(r.toJson(preferMinimal), StandardCharsets.UTF_8), "test");
        }
    }
}
