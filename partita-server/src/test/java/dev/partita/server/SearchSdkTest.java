package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vector, full-text and hybrid search through the Java SDK on one and on five physical partitions: the SDK's
 * non-streaming ORDER BY and hybrid pipelines merge the per-partition answers into the service's answer.
 */
class SearchSdkTest {
    private static final int DOCS = 40;
    private static final String[] WORDS = {"swimming", "runs", "bike", "ocean", "mountain", "river", "coffee",
        "morning", "training", "race"};

    private static TestServers servers;
    private static CosmosClient client;
    private static CosmosDatabase db;
    private static List<ObjectNode> docs;

    @BeforeAll
    static void start() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        servers = TestServers.http();
        client = servers.client();
        client.createDatabase("search");
        db = client.getDatabase("search");
        db.createContainer(properties("one"));
        db.createContainer(properties("five"), ThroughputProperties.createManualThroughput(30_000));
        docs = documents(new Random(11));
        for (ObjectNode doc : docs) {
            db.getContainer("one").createItem(doc);
            db.getContainer("five").createItem(doc);
        }
    }

    @AfterAll
    static void stop() {
        client.close();
        servers.close();
    }

    static CosmosContainerProperties properties(String id) {
        return container(body(id));
    }

    static ObjectNode body(String id) {
        return (ObjectNode) Json.parse("""
            {"id": "%s", "partitionKey": {"paths": ["/cat"], "kind": "Hash", "version": 2},
             "vectorEmbeddingPolicy": {"vectorEmbeddings": [
               {"path": "/cos", "dataType": "float32", "dimensions": 4, "distanceFunction": "cosine"},
               {"path": "/dot", "dataType": "float32", "dimensions": 4, "distanceFunction": "dotproduct"},
               {"path": "/euc", "dataType": "float32", "dimensions": 4, "distanceFunction": "euclidean"},
               {"path": "/i8", "dataType": "int8", "dimensions": 4, "distanceFunction": "euclidean"},
               {"path": "/u8", "dataType": "uint8", "dimensions": 4, "distanceFunction": "dotproduct"},
               {"path": "/f16", "dataType": "float16", "dimensions": 4, "distanceFunction": "cosine"}]},
             "fullTextPolicy": {"defaultLanguage": "en-US", "fullTextPaths": [{"path": "/text", "language": "en-US"}]},
             "indexingPolicy": {"includedPaths": [{"path": "/*"}],
               "excludedPaths": [{"path": "/cos/*"}, {"path": "/dot/*"}, {"path": "/euc/*"}, {"path": "/i8/*"},
                                 {"path": "/u8/*"}, {"path": "/f16/*"}],
               "vectorIndexes": [{"path": "/cos", "type": "flat"}, {"path": "/euc", "type": "quantizedFlat"},
                                 {"path": "/dot", "type": "diskANN"}],
               "fullTextIndexes": [{"path": "/text"}]}}
            """.formatted(id), "test container");
    }

    /** Properties from JSON, as the SDK builds them from a response (its JSON constructor is package-private). */
    static CosmosContainerProperties container(ObjectNode body) {
        if (body.get("indexingPolicy") instanceof ObjectNode p && !p.has("indexingMode")) {
            p.put("indexingMode", "consistent"); // the SDK reads it when it serializes the properties
        }
        try {
            var k = CosmosContainerProperties.class.getDeclaredConstructor(ObjectNode.class);
            k.setAccessible(true);
            return k.newInstance(body);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<ObjectNode> documents(Random r) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            ObjectNode d = Json.object();
            d.put("id", "d" + i);
            d.put("cat", "c" + (i % 4));
            for (String p : List.of("cos", "dot", "euc", "f16")) {
                ArrayNode v = d.putArray(p);
                for (int k = 0; k < 4; k++) {
                    v.add(Math.round((r.nextDouble() * 2 - 1) * 1000) / 1000.0);
                }
            }
            ArrayNode i8 = d.putArray("i8");
            ArrayNode u8 = d.putArray("u8");
            for (int k = 0; k < 4; k++) {
                i8.add(r.nextInt(256) - 128);
                u8.add(r.nextInt(256));
            }
            d.put("text", WORDS[i % WORDS.length] + " " + WORDS[(i * 3 + 1) % WORDS.length] + " "
                    + WORDS[(i * 7 + 2) % WORDS.length]);
            out.add(d);
        }
        return out;
    }

    private static List<JsonNode> query(String container, String sql, Map<String, Object> params,
            CosmosQueryRequestOptions options) {
        List<SqlParameter> ps = new ArrayList<>();
        params.forEach((k, v) -> ps.add(new SqlParameter(k, v)));
        List<JsonNode> out = new ArrayList<>();
        db.getContainer(container).queryItems(new SqlQuerySpec(sql, ps), options == null
                ? new CosmosQueryRequestOptions() : options, JsonNode.class).forEach(out::add);
        return out;
    }

    private static double[] vec(JsonNode a) {
        double[] v = new double[a.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.get(i).asDouble();
        }
        return v;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static double score(String fn, double[] a, double[] b) {
        return switch (fn) {
            case "cosine" -> dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
            case "dotproduct" -> dot(a, b);
            default -> {
                double s = 0;
                for (int i = 0; i < a.length; i++) {
                    s += (a[i] - b[i]) * (a[i] - b[i]);
                }
                yield Math.sqrt(s);
            }
        };
    }

    /** The ids of the k nearest documents (most similar first), exactly. */
    private static List<String> nearest(String path, String fn, double[] q, int k, java.util.function.Predicate<ObjectNode> keep) {
        ToDoubleFunction<ObjectNode> s = d -> score(fn, vec(d.get(path)), q);
        Comparator<ObjectNode> order = Comparator.comparingDouble(s);
        if (!fn.equals("euclidean")) {
            order = order.reversed();
        }
        return docs.stream().filter(keep).sorted(order).limit(k).map(d -> d.get("id").asText()).toList();
    }

    private static List<String> ids(List<JsonNode> rows) {
        return rows.stream().map(r -> r.get("id").asText()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "five"})
    void nearestNeighboursByEachDistanceFunctionAndDataType(String container) {
        double[] q = {0.5, -0.25, 0.75, 0.1};
        for (String[] c : new String[][] {{"cos", "cosine"}, {"dot", "dotproduct"}, {"euc", "euclidean"},
                {"f16", "cosine"}}) {
            List<JsonNode> rows = query(container, "SELECT TOP 5 c.id, VectorDistance(c." + c[0] + ", @q) AS score "
                    + "FROM c ORDER BY VectorDistance(c." + c[0] + ", @q)", Map.of("@q", q), null);
            assertThat(ids(rows)).as(c[0]).isEqualTo(nearest(c[0], c[1], q, 5, d -> true));
            ObjectNode best = docs.stream().filter(d -> d.get("id").asText().equals(ids(rows).get(0))).findFirst()
                    .orElseThrow();
            assertThat(rows.get(0).get("score").asDouble()).isCloseTo(score(c[1], vec(best.get(c[0])), q),
                    org.assertj.core.data.Offset.offset(c[0].equals("f16") ? 1e-3 : 1e-6));
        }
        double[] qi = {10, -20, 30, 5};
        List<JsonNode> i8 = query(container, "SELECT TOP 4 c.id FROM c ORDER BY VectorDistance(c.i8, @q)",
                Map.of("@q", qi), null);
        assertThat(ids(i8)).isEqualTo(nearest("i8", "euclidean", qi, 4, d -> true));
        double[] qu = {10, 200, 30, 5};
        List<JsonNode> u8 = query(container, "SELECT TOP 4 c.id FROM c ORDER BY VectorDistance(c.u8, @q)",
                Map.of("@q", qu), null);
        assertThat(ids(u8)).isEqualTo(nearest("u8", "dotproduct", qu, 4, d -> true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "five"})
    void nearestNeighboursWithAFilterAPartitionKeyAndOptions(String container) {
        double[] q = {-0.3, 0.8, 0.1, -0.6};
        List<JsonNode> filtered = query(container, "SELECT TOP 3 c.id FROM c WHERE c.cat IN ('c1', 'c2') "
                + "ORDER BY VectorDistance(c.cos, @q)", Map.of("@q", q), null);
        assertThat(ids(filtered)).isEqualTo(nearest("cos", "cosine", q, 3,
                d -> List.of("c1", "c2").contains(d.get("cat").asText())));
        CosmosQueryRequestOptions pk = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("c3"));
        List<JsonNode> scoped = query(container, "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.cos, @q)",
                Map.of("@q", q), pk);
        assertThat(ids(scoped)).isEqualTo(nearest("cos", "cosine", q, 3, d -> d.get("cat").asText().equals("c3")));
        // the options override the policy's distance function; brute force is exact
        List<JsonNode> euclid = query(container, "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.cos, @q, "
                + "true, {distanceFunction: 'euclidean'})", Map.of("@q", q), null);
        assertThat(ids(euclid)).isEqualTo(nearest("cos", "euclidean", q, 3, d -> true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "five"})
    void fullTextContainsAllAnyWithStemmingAndFuzzyTerms(String container) {
        // "runs" and "running" stem alike; "swim" does not match "swimming" under the English stemmer's rules
        List<String> run = ids(query(container, "SELECT c.id FROM c WHERE FullTextContains(c.text, 'running')",
                Map.of(), null));
        assertThat(run).containsExactlyInAnyOrderElementsOf(matching(t -> t.contains("runs")));
        List<String> all = ids(query(container, "SELECT c.id FROM c WHERE FullTextContainsAll(c.text, 'Ocean', "
                + "'river')", Map.of(), null));
        assertThat(all).containsExactlyInAnyOrderElementsOf(matching(t -> t.contains("ocean") && t.contains("river")));
        List<String> any = ids(query(container, "SELECT c.id FROM c WHERE FullTextContainsAny(c.text, 'coffee', "
                + "'bikes')", Map.of(), null));
        assertThat(any).containsExactlyInAnyOrderElementsOf(matching(t -> t.contains("coffee") || t.contains("bike")));
        List<String> fuzzy = ids(query(container, "SELECT c.id FROM c WHERE FullTextContains(c.text, "
                + "{term: 'mountian', distance: 2})", Map.of(), null));
        assertThat(fuzzy).isNotEmpty().containsExactlyInAnyOrderElementsOf(matching(t -> t.contains("mountain")));
        assertThat(ids(query(container, "SELECT c.id FROM c WHERE FullTextContains(c.text, 'mountian')", Map.of(),
                null))).isEmpty();
    }

    private static List<String> matching(java.util.function.Predicate<String> text) {
        return docs.stream().filter(d -> text.test(d.get("text").asText())).map(d -> d.get("id").asText()).toList();
    }

    @Test
    void fullTextScoreRanksByBm25OverAllPartitions() {
        CosmosContainer c = bm25Corpus();
        List<String> got = new ArrayList<>();
        c.queryItems("SELECT TOP 4 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'fox', 'dog')",
                new CosmosQueryRequestOptions(), JsonNode.class).forEach(r -> got.add(r.get("id").asText()));
        // by hand: N = 6, avgdl = 19/6; fox in 3 docs, dog in 2; k1 = 1.2, b = 0.75
        double n = 6;
        double avg = 19 / 6.0;
        double idfFox = Math.log(1 + (n - 3 + 0.5) / 3.5);
        double idfDog = Math.log(1 + (n - 2 + 0.5) / 2.5);
        double a = bm25(idfFox, 2, 4, avg);                              // "fox fox jumps high"
        double b = bm25(idfFox, 1, 2, avg) + bm25(idfDog, 1, 2, avg);   // "fox and dog" ("and" is a stop word)
        double d = bm25(idfDog, 1, 2, avg);                              // "lazy dog"
        double e = bm25(idfFox, 1, 5, avg);                              // "a quick brown fox runs far" ("a" goes)
        assertThat(b).isGreaterThan(a);
        assertThat(got).containsExactly(rank(Map.of("a", a, "b", b, "d", d, "e", e)));
    }

    private static double bm25(double idf, int tf, int length, double avg) {
        return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avg));
    }

    private static String[] rank(Map<String, Double> scores) {
        return scores.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(Map.Entry::getKey).toArray(String[]::new);
    }

    private static CosmosContainer bm25Corpus() {
        ObjectNode body = (ObjectNode) Json.parse("""
            {"id": "bm25", "partitionKey": {"paths": ["/id"], "kind": "Hash", "version": 2},
             "fullTextPolicy": {"defaultLanguage": "en-US", "fullTextPaths": [{"path": "/text", "language": "en-US"}]},
             "indexingPolicy": {"fullTextIndexes": [{"path": "/text"}]}}""", "test container");
        db.createContainerIfNotExists(container(body), ThroughputProperties.createManualThroughput(30_000));
        CosmosContainer c = db.getContainer("bm25");
        // term counts after analysis: 4, 2 ("fox", "dog"), 2, 5 ("a" is a stop word), 3, 3 = 19
        String[][] corpus = {{"a", "fox fox jumps high"}, {"b", "fox and dog"}, {"d", "lazy dog"},
            {"e", "a quick brown fox runs far"}, {"f", "cats sleep all"}, {"g", "birds sing songs"}};
        for (String[] doc : corpus) {
            ObjectNode o = Json.object();
            o.put("id", doc[0]);
            o.put("text", doc[1]);
            c.upsertItem(o);
        }
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "five"})
    void rrfFusesVectorAndTextRanksWithAndWithoutWeights(String container) {
        double[] q = {0.5, 0.5, -0.5, 0.1};
        String sql = "SELECT TOP 5 c.id FROM c ORDER BY RANK RRF(VectorDistance(c.cos, @q), "
                + "FullTextScore(c.text, 'ocean', 'coffee')%s)";
        Map<String, String> rids = new java.util.HashMap<>();
        query(container, "SELECT c.id, c._rid FROM c", Map.of(), null)
                .forEach(r -> rids.put(r.get("id").asText(), r.get("_rid").asText()));
        List<String> plain = ids(query(container, sql.formatted(""), Map.of("@q", q), null));
        assertThat(plain).hasSize(5).isEqualTo(rrf(q, 1, 1, rids));
        List<String> weighted = ids(query(container, sql.formatted(", [3, 0.5]"), Map.of("@q", q), null));
        assertThat(weighted).isEqualTo(rrf(q, 3, 0.5, rids));
    }

    /**
     * RRF as the Java SDK computes it: items in {@code _rid} order, each component's scores sorted (stably) best
     * first, ranks 1, 2, 3... by position (4.81 compares boxed scores by identity, so equal scores do not share a
     * rank), {@code sum(weight / (60 + rank))}, sorted stably by that; k = 60.
     */
    private static List<String> rrf(double[] q, double wv, double wt, Map<String, String> rids) {
        Map<String, Double> vector = new java.util.HashMap<>();
        Map<String, Double> text = new java.util.HashMap<>();
        double words = docs.stream().mapToInt(d -> 3).sum();
        for (ObjectNode d : docs) {
            vector.put(d.get("id").asText(), score("cosine", vec(d.get("cos")), q));
        }
        long ocean = docs.stream().filter(d -> d.get("text").asText().contains("ocean")).count();
        long coffee = docs.stream().filter(d -> d.get("text").asText().contains("coffee")).count();
        for (ObjectNode d : docs) {
            String t = d.get("text").asText();
            double s = 0;
            for (String[] term : new String[][] {{"ocean", "" + ocean}, {"coffee", "" + coffee}}) {
                int tf = (int) java.util.Arrays.stream(t.split(" ")).filter(w -> w.equals(term[0])).count();
                if (tf > 0) {
                    double n = Double.parseDouble(term[1]);
                    s += bm25(Math.log(1 + (DOCS - n + 0.5) / (n + 0.5)), tf, 3, words / DOCS);
                }
            }
            text.put(d.get("id").asText(), s);
        }
        List<String> byRid = new ArrayList<>(rids.keySet());
        byRid.sort(Comparator.comparing(rids::get));
        Map<String, Double> fused = new java.util.HashMap<>();
        for (Map<String, Double> component : List.of(vector, text)) {
            double w = component == vector ? wv : wt;
            List<String> order = new ArrayList<>(byRid);
            order.sort(Comparator.comparing(component::get, Comparator.reverseOrder()));
            for (int i = 0; i < order.size(); i++) {
                fused.merge(order.get(i), w / (60 + i + 1), Double::sum);
            }
        }
        List<String> out = new ArrayList<>(byRid);
        out.sort(Comparator.comparing(fused::get, Comparator.reverseOrder()));
        return out.subList(0, 5);
    }

    @Test
    void everyPolicyValidationIsA400() {
        String[] bad = {
            // unknown data type, distance function, dimensions out of range
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float64','dimensions':3,'distanceFunction':'cosine'}]}|",
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':3,'distanceFunction':'hamming'}]}|",
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':0,'distanceFunction':'cosine'}]}|",
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':4097,'distanceFunction':'cosine'}]}|",
            // a flat index holds 505 dimensions at most
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':506,'distanceFunction':'cosine'}]}"
                + "|'vectorIndexes':[{'path':'/v','type':'flat'}],'excludedPaths':[{'path':'/v/*'}]",
            // a vector index path must be embedded and of a known type (excluding it from the range index is advice)
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':3,'distanceFunction':'cosine'}]}"
                + "|'vectorIndexes':[{'path':'/w','type':'flat'}],'excludedPaths':[{'path':'/w/*'}]",
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':3,'distanceFunction':'cosine'}]}"
                + "|'vectorIndexes':[{'path':'/v','type':'hnsw'}],'excludedPaths':[{'path':'/v/*'}]",
            "{'vectorEmbeddings':[{'path':'/v','dataType':'float32','dimensions':3,'distanceFunction':'cosine'}]}"
                + "|'vectorIndexes':[{'path':'/v','type':'diskANN','indexingSearchListSize':10}],"
                + "'excludedPaths':[{'path':'/v/*'}]",
        };
        for (String b : bad) {
            String[] parts = b.split("\\|", -1);
            String body = "{'id':'bad','partitionKey':{'paths':['/pk'],'kind':'Hash'},'vectorEmbeddingPolicy':"
                    + parts[0] + ",'indexingPolicy':{" + parts[1] + "}}";
            assertRejected(body.replace('\'', '"'));
        }
        String[] badText = {
            "'fullTextPolicy':{'defaultLanguage':'xx-XX','fullTextPaths':[]}",
            "'fullTextPolicy':{'defaultLanguage':'en-US','fullTextPaths':[{'path':'/t','language':'nl-NL'}]}",
            "'fullTextPolicy':{'defaultLanguage':'en-US','fullTextPaths':[{'path':'/t'}]},"
                + "'indexingPolicy':{'fullTextIndexes':[{'path':'/u'}]}",
        };
        for (String t : badText) {
            assertRejected(("{'id':'bad','partitionKey':{'paths':['/pk'],'kind':'Hash'}," + t + "}").replace('\'', '"'));
        }
    }

    private static void assertRejected(String body) {
        assertThatThrownBy(() -> db.createContainer(container((ObjectNode) Json.parse(body, "test container"))))
                .as(body).isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(400));
    }

    @Test
    void theEmbeddingPolicyCannotChangeOnReplace() {
        CosmosContainer c = db.getContainer("one");
        CosmosContainerProperties changed = c.read().getProperties();
        var policy = changed.getVectorEmbeddingPolicy();
        policy.getVectorEmbeddings().get(0).setEmbeddingDimensions(8);
        changed.setVectorEmbeddingPolicy(policy);
        assertThatThrownBy(() -> c.replace(changed)).isInstanceOfSatisfying(CosmosException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(400));
        // other properties still change
        CosmosContainerProperties ttl = c.read().getProperties();
        assertThat(ttl.getVectorEmbeddingPolicy().getVectorEmbeddings()).hasSize(6);
        ttl.setDefaultTimeToLiveInSeconds(3600);
        assertThat(c.replace(ttl).getProperties().getDefaultTimeToLiveInSeconds()).isEqualTo(3600);
        ttl.setDefaultTimeToLiveInSeconds(null);
        c.replace(ttl);
    }

    @Test
    void aVectorSearchWithoutTopIsPlannedAndTheSdkRefusesIt() {
        // The service plans it (hasNonStreamingOrderBy, no top or limit) and leaves the refusal to the SDKs. This
        // SDK's own check (DocumentQueryExecutionContextFactory) unboxes the absent TOP and fails with an NPE
        // before it sends any query, as against the service; the JavaScript SDK says "without TOP or LIMIT".
        assertThatThrownBy(() -> query("one", "SELECT c.id FROM c ORDER BY VectorDistance(c.cos, [1,2,3,4])",
                Map.of(), null)).isInstanceOf(NullPointerException.class).hasMessageContaining("getTop()");
        assertThat(query("one", "SELECT TOP 3 c.id FROM c ORDER BY VectorDistance(c.cos, [1,2,3,4])",
                Map.of(), null)).hasSize(3);
    }
}
