package dev.partita.core.index.vector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.TickingClock;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The first approximate vector search on a path builds its graph from the container: the build is spread over
 * requests, each adding vectors until its deadline (the query then scores exactly, which the spent budget makes a
 * 408 here), and once built the search answers from the graph as an unhurried engine's does, writes made between
 * the requests included. The clock moves one millisecond per read, so a 20 ms budget covers a few vectors.
 */
class BoundedVectorBuildTest {
    static final int N = 1200;
    static final String SQL = "SELECT TOP 5 c.id FROM c ORDER BY VectorDistance(c.v, @q)";

    @Test
    void theGraphIsBuiltOverRequestsWithinTheirBudget() {
        TickingClock clock = new TickingClock(Instant.parse("2026-11-30T00:00:00Z"), false);
        try (Engine bounded = engine(clock, Duration.ofMillis(20));
                Engine timely = engine(Clock.systemUTC(), Limits.DEFAULTS.maxRequestExecution())) {
            JsonNode q = ApproximateVectorSearchTest.vector(new Random(7));
            clock.start();
            int timeouts = 0;
            List<String> got = null;
            while (got == null) {
                try {
                    got = ApproximateVectorSearchTest.ids(ApproximateVectorSearchTest.query(handle(bounded), SQL, q,
                            Scope.range("0")));
                } catch (ServiceException e) {
                    assertThat(e.status()).isEqualTo(408);
                    assertThat(++timeouts).isLessThan(5_000);
                    if (timeouts == 3) {
                        for (Engine engine : List.of(bounded, timely)) {
                            create(engine, "near", q); // written after the build read its part of the key order
                        }
                    }
                }
            }
            assertThat(timeouts).as("the build took several requests").isGreaterThan(3);
            assertThat(bounded.vectorIndexBytes(bounded.readContainer("db", "c"), "/v"))
                    .as("answered from the graph").isPositive();
            assertThat(got).contains("near").isEqualTo(ApproximateVectorSearchTest.ids(ApproximateVectorSearchTest
                    .query(handle(timely), SQL, q, Scope.range("0"))));
        }
    }

    private static Engine engine(Clock clock, Duration budget) {
        Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS.toBuilder().maxRequestExecution(budget)
                .build());
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        engine.createContainer("db", (ObjectNode) Json.parse("""
                {"id": "c", "partitionKey": {"paths": ["/pk"]},
                 "vectorEmbeddingPolicy": {"vectorEmbeddings": [
                   {"path": "/v", "dataType": "float32", "dimensions": %d, "distanceFunction": "cosine"}]},
                 "indexingPolicy": {"excludedPaths": [{"path": "/v/*"}],
                   "vectorIndexes": [{"path": "/v", "type": "quantizedFlat"}]}}"""
                .formatted(ApproximateVectorSearchTest.DIMS), "test"), Throughput.NONE, 1);
        Random r = new Random(1);
        for (int i = 0; i < N; i++) {
            create(engine, "i" + i, ApproximateVectorSearchTest.vector(r));
        }
        return engine;
    }

    private static void create(Engine engine, String id, JsonNode v) {
        handle(engine).upsert(Json.object().put("id", id).put("pk", "p" + id.hashCode() % 5).set("v", v).toString()
                .getBytes(StandardCharsets.UTF_8), dev.partita.core.request.RequestOptions.NONE);
    }

    private static ContainerHandle handle(Engine engine) {
        return engine.container("db", "c");
    }
}
