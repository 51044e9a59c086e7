package dev.partita.core.index.vector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HNSW graph behind quantizedFlat and diskANN: recall against brute force, reads only candidates, follows every
 * write after it is built, and is never used for brute-force calls or before the index holds 1,000 vectors.
 */
class ApproximateVectorSearchTest {
    static final int N = 2500;
    static final int DIMS = 24;

    static Engine engine(String type) {
        return engine(type, new MemoryStore());
    }

    static Engine engine(String type, dev.partita.core.store.Store store) {
        Engine engine = Engine.open(store, Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = (ObjectNode) Json.parse("""
                {"id": "c", "partitionKey": {"paths": ["/pk"]},
                 "vectorEmbeddingPolicy": {"vectorEmbeddings": [
                   {"path": "/v", "dataType": "float32", "dimensions": %d, "distanceFunction": "cosine"}]},
                 "indexingPolicy": {"excludedPaths": [{"path": "/v/*"}],
                   "vectorIndexes": [{"path": "/v", "type": "%s"}]}}""".formatted(DIMS, type), "test");
        engine.createContainer("db", body, Throughput.NONE, 3);
        return engine;
    }

    static ArrayNode vector(Random r) {
        ArrayNode a = Json.NODES.arrayNode();
        for (int i = 0; i < DIMS; i++) {
            a.add(r.nextGaussian());
        }
        return a;
    }

    static QueryPage query(ContainerHandle c, String sql, JsonNode q, Scope scope) {
        return c.query(sql, Map.of("@q", q), RequestOptions.scoped(scope));
    }

    static List<String> ids(QueryPage page) {
        List<String> out = new ArrayList<>();
        page.rows().forEach(r -> out.add(r.get("id").asText()));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"diskANN", "quantizedFlat"})
    void recallAgainstBruteForceAndTheWorkSaved(String type) {
        Engine engine = engine(type);
        ContainerHandle c = engine.container("db", "c");
        Random r = new Random(3);
        for (int i = 0; i < N; i++) {
            ObjectNode d = Json.object().put("id", "i" + i).put("pk", "p" + (i % 7)).put("n", i % 10);
            d.set("v", vector(r));
            c.create(Json.bytes(d), RequestOptions.NONE);
        }
        double hits = 0;
        int queries = 20;
        for (int t = 0; t < queries; t++) {
            ArrayNode q = vector(r);
            QueryPage approx = query(c, "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.v, @q)", q,
                    Scope.CONTAINER);
            QueryPage exact = query(c, "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.v, @q, true)", q,
                    Scope.CONTAINER);
            assertThat(approx.work().itemsLoaded()).isLessThan(N / 4);
            assertThat(exact.work().itemsLoaded()).isEqualTo(N);
            // priced by the work: every vector compared in full for brute force, the candidates only otherwise
            assertThat(exact.work().searchWork()).isGreaterThanOrEqualTo((long) N * DIMS);
            assertThat(approx.work().searchWork()).isLessThan((long) N * DIMS / 4);
            assertThat(new dev.partita.core.capacity.CostModel().price(exact.work()))
                    .isGreaterThan(new dev.partita.core.capacity.CostModel().price(approx.work()));
            Set<String> truth = new HashSet<>(ids(exact));
            hits += ids(approx).stream().filter(truth::contains).count();
        }
        assertThat(hits / (queries * 10)).isGreaterThanOrEqualTo(0.95);
        // a filter and a logical partition are applied to the candidates (exact when the graph gives too few)
        ArrayNode q = vector(r);
        String filtered = "SELECT TOP 5 c.id FROM c WHERE c.n = 3 ORDER BY VectorDistance(c.v, @q)";
        List<String> got = ids(query(c, filtered, q, Scope.CONTAINER));
        assertThat(got).hasSize(5).isEqualTo(ids(query(c, filtered.replace("@q)", "@q, true)"), q,
                Scope.CONTAINER)));
        Scope p3 = Scope.partitionKey(PartitionKeyValue.fromJson(Json.NODES.arrayNode().add("p3")));
        assertThat(ids(query(c, "SELECT TOP 5 c.id FROM c ORDER BY VectorDistance(c.v, @q)", q, p3)))
                .allMatch(id -> Integer.parseInt(id.substring(1)) % 7 == 3).hasSize(5);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theGraphFollowsWritesAfterItIsBuilt(boolean rocks, @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Engine engine = engine("diskANN", rocks ? dev.partita.core.store.RocksStore.open(dir) : new MemoryStore());
        ContainerHandle c = engine.container("db", "c");
        Random r = new Random(5);
        for (int i = 0; i < 1200; i++) {
            ObjectNode d = Json.object().put("id", "i" + i).put("pk", "p" + (i % 5));
            d.set("v", vector(r));
            c.create(Json.bytes(d), RequestOptions.NONE);
        }
        ArrayNode q = vector(r);
        String sql = "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.v, @q)";
        String before = ids(query(c, sql, q, Scope.CONTAINER)).get(0);
        // a new item at the query's vector becomes the nearest; deleting it brings the old nearest back
        ObjectNode d = Json.object().put("id", "new").put("pk", "p1");
        d.set("v", q.deepCopy());
        c.upsert(Json.bytes(d), RequestOptions.NONE);
        assertThat(ids(query(c, sql, q, Scope.CONTAINER)).get(0)).isEqualTo("new");
        c.delete("new", RequestOptions.of(PartitionKeyValue.fromJson(Json.NODES.arrayNode().add("p1"))));
        assertThat(ids(query(c, sql, q, Scope.CONTAINER)).get(0)).isEqualTo(before);
        engine.close();
    }
}
