package dev.partita.bench;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Full-text search in process over {@code documents} English texts of 12 words drawn (Zipf-like) from a 5,000-word
 * vocabulary, on one physical partition: a {@code FullTextContains} filter, the corpus-statistics query the SDK sends
 * to every partition for {@code FullTextScore}, and the BM25-ranked component query with those statistics filled in
 * (the server-side work of {@code ORDER BY RANK FullTextScore}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class FullTextSearchBenchmark {
    static final String CONTAINS = "SELECT TOP 10 c.id FROM c WHERE FullTextContains(c.text, @w)";
    static final String STATISTICS = "SELECT COUNT(1) AS documentCount, [{\"totalWordCount\": "
            + "SUM(_FullTextWordCount(c.text)), \"hitCounts\": [COUNTIF(FullTextContains(c.text, @w))]}] AS "
            + "fullTextStatistics FROM c";
    static final String RANKED = "SELECT TOP 120 c._rid, [{\"item\": _FullTextScore(c.text, [@w], %d, %d, [%d])}] "
            + "AS orderByItems, {\"payload\": {\"id\": c.id}, \"componentScores\": [_FullTextScore(c.text, [@w], %d, "
            + "%d, [%d])]} AS payload FROM c ORDER BY _FullTextScore(c.text, [@w], %d, %d, [%d]) DESC";

    @Param({"100000"})
    public int documents;

    ContainerHandle items;
    String[] words;
    String ranked;
    int next;

    @Setup
    public void load() {
        Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = (ObjectNode) Json.parse("""
                {"id": "t", "partitionKey": {"paths": ["/pk"]},
                 "fullTextPolicy": {"defaultLanguage": "en-US", "fullTextPaths": [{"path": "/text", "language": "en-US"}]},
                 "indexingPolicy": {"fullTextIndexes": [{"path": "/text"}]}}""", "bench");
        ContainerInfo c = engine.createContainer("db", body, Throughput.NONE, 1);
        items = engine.container(c);
        Random r = new Random(9);
        words = new String[5000];
        for (int i = 0; i < words.length; i++) {
            words[i] = word(r);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < documents; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < 12; w++) {
                text.append(w == 0 ? "" : " ").append(words[(int) Math.min(words.length - 1,
                        Math.floor(Math.exp(r.nextDouble() * Math.log(words.length))))]);
            }
            items.create(Json.bytes(Json.object().put("id", "d" + i).put("pk", "p" + (i % 1000))
                    .put("text", text.toString())), RequestOptions.NONE);
        }
        JsonNode stats = run(STATISTICS, words[40]).rows().get(0);
        long n = stats.get("documentCount").asLong();
        long total = stats.get("fullTextStatistics").get(0).get("totalWordCount").asLong();
        long hits = stats.get("fullTextStatistics").get(0).get("hitCounts").get(0).asLong();
        ranked = RANKED.formatted(n, total, hits, n, total, hits, n, total, hits);
        System.out.printf("%nload: %d documents in %.1f s; '%s' in %d of them%n", documents,
                (System.nanoTime() - t0) / 1e9, words[40], hits);
    }

    private static String word(Random r) {
        StringBuilder w = new StringBuilder();
        for (int i = 3 + r.nextInt(6); i > 0; i--) {
            w.append((char) ('a' + r.nextInt(26)));
        }
        return w.toString();
    }

    /** A write before each call changes the container's LSN, so no result comes from the per-LSN result cache. */
    @Setup(Level.Invocation)
    public void touch() {
        items.upsert(Json.bytes(Json.object().put("id", "touch").put("pk", "p0").put("n", next)), RequestOptions.NONE);
    }

    @Benchmark
    public QueryPage containsTop10() {
        return run(CONTAINS, words[10 + next++ % 100]);
    }

    @Benchmark
    public QueryPage corpusStatistics() {
        return run(STATISTICS, words[40]);
    }

    @Benchmark
    public QueryPage bm25Top120() {
        return run(ranked, words[40]);
    }

    QueryPage run(String sql, String word) {
        return items.query(sql, Map.of("@w", Json.NODES.textNode(word)),
                RequestOptions.scoped(dev.partita.core.request.Scope.CONTAINER));
    }
}
