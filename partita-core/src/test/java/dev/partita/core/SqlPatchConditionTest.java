package dev.partita.core;

import dev.partita.core.request.RequestOptions;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Patch filter predicates through the query language, as the SDK sends them ("from c where ..."). */
class SqlPatchConditionTest {

    @Test
    void patchAppliesOnlyWhenThePredicateHolds() {
        try (Engine engine = Engine.open(new MemoryStore(), new MutableClock(Instant.parse("2026-11-30T00:00:00Z")),
                Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t"), Throughput.NONE, 0);
            ContainerHandle items = engine.container("db", "c");
            PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
            items.create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":100,\"tags\":[\"x\"]}"), RequestOptions.of(pk));
            String set = "{\"operations\":[{\"op\":\"incr\",\"path\":\"/n\",\"value\":1}],\"condition\":\"%s\"}";
            assertThat(items.patch("1", bytes(set.formatted("from c where c.n = 100 AND ARRAY_CONTAINS(c.tags, 'x')")), RequestOptions.of(pk)).status()).isEqualTo(200);
            assertThatThrownBy(() -> items.patch("1", bytes(set.formatted("from c where c.n = 100")), RequestOptions.of(pk)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(412));
            assertThatThrownBy(() -> items.patch("1", bytes(set.formatted("from c where (")), RequestOptions.of(pk)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            assertThat(Json.parse(items.read("1", RequestOptions.of(pk)).item().json(), "t").get("n").asInt())
                    .isEqualTo(101);
        }
    }

    /** The condition is a query text: its nesting limit makes 600 parentheses a 400, refused quickly, not a 500. */
    @Test
    void aDeeplyNestedConditionIsABadRequest() {
        try (Engine engine = Engine.open(new MemoryStore(), new MutableClock(Instant.parse("2026-11-30T00:00:00Z")),
                Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t"), Throughput.NONE, 0);
            ContainerHandle items = engine.container("db", "c");
            PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
            items.create(bytes("{\"id\":\"1\",\"pk\":\"a\",\"n\":100}"), RequestOptions.of(pk));
            for (int depth : new int[] {600, 10_000}) {
                String condition = "from c where " + "(".repeat(depth) + "c.n = 100" + ")".repeat(depth);
                String body = "{\"operations\":[{\"op\":\"incr\",\"path\":\"/n\",\"value\":1}],\"condition\":\""
                        + condition + "\"}";
                long start = System.nanoTime();
                assertThatThrownBy(() -> items.patch("1", bytes(body), RequestOptions.of(pk)))
                        .isInstanceOfSatisfying(ServiceException.class, e -> {
                            assertThat(e.status()).isEqualTo(400);
                            assertThat(e.getMessage()).contains("nested too deeply");
                        });
                assertThat((System.nanoTime() - start) / 1_000_000).as("ms to refuse depth %d", depth).isLessThan(1_000);
            }
            assertThat(Json.parse(items.read("1", RequestOptions.of(pk)).item().json(), "t").get("n").asInt())
                    .isEqualTo(100);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
