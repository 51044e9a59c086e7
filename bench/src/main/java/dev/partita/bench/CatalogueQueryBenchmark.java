package dev.partita.bench;

import dev.partita.core.request.RequestOptions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.query.QueryPage;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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
 * The seven catalogue queries of reference-systems.md §3, a GROUP BY count and two more string filters, on vehicles keyed {@code /make}, in
 * process (100,000 by default; {@code -p vehicles=10000,1000000} for the scaling check): the server-side work of the
 * first page of each (every physical range the SDK would ask, one after the other, with the query the SDK would send
 * it — the plan's rewrite for ORDER BY). A write before each call changes the container's LSN so no result is served
 * from the per-LSN page cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class CatalogueQueryBenchmark {
    static final int PAGE = 100;
    static final String TUNED_POLICY = """
            {"indexingMode":"consistent","automatic":true,
             "includedPaths":[{"path":"/make/?"},{"path":"/model/?"},{"path":"/body_style/?"},{"path":"/province/?"},
               {"path":"/title_status/?"},{"path":"/price/?"},{"path":"/condition_grade/?"},{"path":"/ends_at/?"},
               {"path":"/bid_count/?"}],
             "excludedPaths":[{"path":"/*"}],
             "compositeIndexes":[[{"path":"/price","order":"ascending"},{"path":"/condition_grade","order":"ascending"}]]}
            """;

    @Param({"1", "5"})
    public int ranges;

    @Param({"tuned", "default"})
    public String policy;

    /** Catalogue size: indexed queries should cost what they return, not what the container holds. */
    @Param({"100000"})
    public int vehicles;

    Engine engine;
    ContainerInfo container;
    ContainerHandle items;
    List<ObjectNode> catalogue;
    int next;

    /**
     * The loaded catalogue of the last trial, kept for the next one with the same parameters when trials share a JVM
     * ({@code -f 0}): loading a million vehicles takes minutes, the queries milliseconds.
     */
    private static Loaded loaded;

    private record Loaded(String key, Engine engine, ContainerInfo container, ContainerHandle items, List<ObjectNode> catalogue) {
    }

    @Setup(Level.Trial)
    public void setUp() {
        String key = policy + "/" + ranges + "/" + vehicles;
        if (loaded == null || !loaded.key().equals(key)) {
            if (loaded != null) {
                loaded.engine().close();
                loaded = null;
            }
            loaded = load(key);
        }
        engine = loaded.engine();
        container = loaded.container();
        items = loaded.items();
        catalogue = loaded.catalogue();
    }

    private Loaded load(String key) {
        Engine e = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        e.createDatabase(Json.object().put("id", "yard"), Throughput.NONE);
        ObjectNode body = Json.object().put("id", "catalogue");
        body.putObject("partitionKey").putArray("paths").add("/make");
        if ("tuned".equals(policy)) {
            body.set("indexingPolicy", Json.parse(TUNED_POLICY, "policy"));
        }
        ContainerInfo c = e.createContainer("yard", body, Throughput.manual(400 * ranges), ranges);
        ContainerHandle i = e.container("yard", "catalogue");
        List<ObjectNode> all = Catalogue.vehicles(vehicles, 3);
        for (ObjectNode v : all) {
            i.create(Json.bytes(v), RequestOptions.of(key(v)));
        }
        return new Loaded(key, e, c, i, all);
    }

    /** Moves the container's LSN so no query result is served from the previous call's cache. */
    @Setup(Level.Invocation)
    public void touch() {
        ObjectNode v = catalogue.get(Math.floorMod(next++, vehicles));
        items.upsert(Json.bytes(v), RequestOptions.of(key(v)));
    }

    private static PartitionKeyValue key(ObjectNode v) {
        return PartitionKeyValue.fromHeader("[\"" + v.get("make").asText() + "\"]");
    }

    private ObjectNode vehicle() {
        return catalogue.get(spread(next, vehicles));
    }

    /**
     * The {@code n}th call's vehicle, stepping by a prime through the catalogue. In long arithmetic: {@code n * 7919}
     * in int overflows to a negative index after about 271,000 calls.
     */
    static int spread(int n, int vehicles) {
        return (int) Math.floorMod(n * 7919L, (long) vehicles);
    }

    @Benchmark
    public ItemResult q1PointRead() {
        ObjectNode v = vehicle();
        return items.read(v.get("id").asText(), RequestOptions.of(key(v)));
    }

    @Benchmark
    public int q2ReadByIdWithoutMake() {
        return fanOut("SELECT * FROM c WHERE c.id = @id", Map.of("@id", vehicle().get("id")));
    }

    @Benchmark
    public int q3OneMakeEndingSoonest() {
        ObjectNode v = vehicle();
        return pinned("SELECT * FROM c WHERE c.make = @make ORDER BY c.ends_at", Map.of("@make", v.get("make")), key(v));
    }

    @Benchmark
    public int q4OneProvince() {
        return fanOut("SELECT * FROM c WHERE c.province = @p", Map.of("@p", vehicle().get("province")));
    }

    @Benchmark
    public int q5ModelContains() {
        return fanOut("SELECT * FROM c WHERE CONTAINS(c.model, @text)", Map.of("@text", Json.NODES.textNode("ora")));
    }

    /** Case-insensitive CONTAINS that matches one model in 21 (Camry): the first page of 100 from each range. */
    @Benchmark
    public int q9ModelContainsIgnoringCase() {
        return fanOut("SELECT * FROM c WHERE CONTAINS(c.model, @text, true)", Map.of("@text", Json.NODES.textNode("CAM")));
    }

    /** LIKE with a leading wildcard (Sierra, Wrangler), with another conjunct the index cannot answer. */
    @Benchmark
    public int q10ModelLike() {
        return fanOut("SELECT * FROM c WHERE c.model LIKE @p AND c.bid_count > 5",
                Map.of("@p", Json.NODES.textNode("%ra%")));
    }

    @Benchmark
    public int q6ListingEndingSoonest() {
        return fanOut("SELECT * FROM c ORDER BY c.ends_at", Map.of());
    }

    @Benchmark
    public int q7PriceRangeByPrice() {
        return fanOut("SELECT * FROM c WHERE c.price >= @lo AND c.price <= @hi AND c.condition_grade >= @g "
                + "ORDER BY c.price, c.condition_grade", Map.of("@lo", Json.NODES.numberNode(10_000),
                "@hi", Json.NODES.numberNode(12_000), "@g", Json.NODES.numberNode(3.5)));
    }

    /** A whole-container aggregate: GROUP BY reads every item, so it grows with the container by nature. */
    @Benchmark
    public int q8CountByBodyStyle() {
        return fanOut("SELECT c.body_style, COUNT(1) AS n FROM c GROUP BY c.body_style", Map.of());
    }

    private int pinned(String text, Map<String, JsonNode> params, PartitionKeyValue pk) {
        return engine.container(container).query(perRange(text, params), params, RequestOptions.scoped(dev.partita.core.request.Scope.partitionKey(pk)).withMaxItemCount(PAGE))
                .rows().size();
    }

    /** The first page from every range, as the SDK's cross-partition pipeline asks for it. */
    private int fanOut(String text, Map<String, JsonNode> params) {
        String sent = perRange(text, params);
        int rows = 0;
        for (PhysicalPartition range : engine.readContainer("yard", "catalogue").partitions().partitions()) {
            QueryPage page = engine.container(container).query(sent, params, RequestOptions.scoped(dev.partita.core.request.Scope.range(range.id())).withMaxItemCount(PAGE));
            rows += page.rows().size();
        }
        return rows;
    }

    /** The query text the SDK sends to each range: the plan's rewrite when there is one. */
    private String perRange(String text, Map<String, JsonNode> params) {
        JsonNode rewritten = items.queryPlan(text, params, null, RequestOptions.NONE).path("queryInfo").path("rewrittenQuery");
        // the SDK fills the ORDER BY rewrite's resume filter in before sending: "true" on a first page
        return rewritten.isTextual() && !rewritten.asText().isEmpty()
                ? rewritten.asText().replace("{documentdb-formattableorderbyquery-filter}", "true") : text;
    }

}
