package dev.partita.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Top-10 nearest neighbours in process over {@code vectors} items with {@code dims}-dimension float32 embeddings
 * (cosine, diskANN index): through the HNSW graph, and by brute force ({@code VectorDistance(..., true)}). The setup
 * prints what JMH does not measure: the load, the graph's build time (the first approximate query builds it), its
 * memory per vector, and recall@10 of the approximate answer against the exact one over 50 queries.
 *
 * <p>The vectors are embedding-like: 1,000 random centres on the sphere, each item a centre plus noise (uniformly
 * random vectors in 768 dimensions have no neighbours to find; real embeddings cluster).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx12g", "--add-modules=jdk.incubator.vector"})
public class VectorSearchBenchmark {
    static final String APPROXIMATE = "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.v, @q)";
    static final String EXACT = "SELECT TOP 10 c.id FROM c ORDER BY VectorDistance(c.v, @q, true)";

    @Param({"100000"})
    public int vectors;

    @Param({"768"})
    public int dims;

    Engine engine;
    ContainerHandle items;
    ArrayNode[] queries;
    int next;

    @Setup
    public void load() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = (ObjectNode) Json.parse("""
                {"id": "v", "partitionKey": {"paths": ["/pk"]},
                 "vectorEmbeddingPolicy": {"vectorEmbeddings": [
                   {"path": "/v", "dataType": "float32", "dimensions": %d, "distanceFunction": "cosine"}]},
                 "indexingPolicy": {"excludedPaths": [{"path": "/v/*"}],
                   "vectorIndexes": [{"path": "/v", "type": "diskANN"}]}}""".formatted(dims), "bench");
        ContainerInfo c = engine.createContainer("db", body, Throughput.NONE, 1);
        items = engine.container(c);
        Random r = new Random(42);
        float[][] centres = new float[1000][];
        for (int i = 0; i < centres.length; i++) {
            centres[i] = unit(gaussian(r, dims, 1));
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < vectors; i++) {
            ObjectNode d = Json.object().put("id", "i" + i).put("pk", "p" + (i % 1000));
            d.set("v", json(noisy(r, centres[r.nextInt(centres.length)])));
            items.create(Json.bytes(d), RequestOptions.NONE);
        }
        long t1 = System.nanoTime();
        queries = new ArrayNode[50];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = json(noisy(r, centres[r.nextInt(centres.length)]));
        }
        run(APPROXIMATE, queries[0]); // builds the graph
        long t2 = System.nanoTime();
        long bytes = engine.vectorIndexBytes(engine.readContainer("db", "v"), "/v");
        double hits = 0;
        for (ArrayNode q : queries) {
            Set<String> truth = ids(run(EXACT, q));
            hits += ids(run(APPROXIMATE, q)).stream().filter(truth::contains).count();
        }
        System.out.printf("%nload: %d items in %.1f s; graph build: %.1f s; graph memory: %d bytes per vector "
                + "(%d dims x 4 = %d raw); recall@10: %.3f over %d queries%n", vectors, (t1 - t0) / 1e9,
                (t2 - t1) / 1e9, bytes / vectors, dims, dims * 4, hits / (queries.length * 10), queries.length);
    }

    @Benchmark
    public QueryPage approximateTop10() {
        return run(APPROXIMATE, queries[next++ % queries.length]);
    }

    @Benchmark
    public QueryPage bruteForceTop10() {
        return run(EXACT, queries[next++ % queries.length]);
    }

    QueryPage run(String sql, JsonNode q) {
        return items.query(sql, Map.of("@q", q), RequestOptions.scoped(dev.partita.core.request.Scope.CONTAINER));
    }

    static Set<String> ids(QueryPage page) {
        Set<String> out = new HashSet<>();
        page.rows().forEach(row -> out.add(row.get("id").asText()));
        return out;
    }

    static float[] gaussian(Random r, int n, double sigma) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (r.nextGaussian() * sigma);
        }
        return v;
    }

    static float[] unit(float[] v) {
        double s = 0;
        for (float x : v) {
            s += x * x;
        }
        double n = Math.sqrt(s);
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (v[i] / n);
        }
        return v;
    }

    /** A centre plus noise about as long as the centre's distance to its neighbours. */
    static float[] noisy(Random r, float[] centre) {
        float[] v = gaussian(r, centre.length, 1.0 / Math.sqrt(centre.length));
        for (int i = 0; i < v.length; i++) {
            v[i] = centre[i] + 0.5f * v[i];
        }
        return v;
    }

    static ArrayNode json(float[] v) {
        ArrayNode a = Json.NODES.arrayNode();
        for (float x : v) {
            a.add(Math.round(x * 10000) / 10000.0);
        }
        return a;
    }

}
