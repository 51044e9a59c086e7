package dev.partita.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.item.BatchResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import dev.partita.examples.catalogue.CatalogueGenerator;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The engine's CPU per bulk item without the SDK or HTTP: the seed of seed 003 ({@link SeedTimer}'s vehicles, the
 * catalogue's tuned policy as JSON, one upsert per vehicle) as bulk bodies of 100 operations shaped as the Java SDK
 * sends them, through {@code ContainerHandle.bulk} on one thread; each round seeds a new container and reports the
 * thread's CPU time per item (the first round on a cold JVM).
 *
 * <pre>
 * java -Xmx6g -cp bench/target/benchmarks.jar dev.partita.bench.EngineBulkProbe [vehicles (100000)] [rounds (3)]
 * </pre>
 */
public final class EngineBulkProbe {
    /** The catalogue's tuned policy ({@code Policies.tuned()}) as the SDK sends it. */
    private static final String TUNED = """
            {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/make/?"},{"path":"/model/?"},
             {"path":"/body_style/?"},{"path":"/province/?"},{"path":"/title_status/?"},{"path":"/price/?"},
             {"path":"/condition_grade/?"},{"path":"/ends_at/?"},{"path":"/bid_count/?"}],
             "excludedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/price","order":"ascending"},
             {"path":"/condition_grade","order":"ascending"}],[{"path":"/make","order":"ascending"},
             {"path":"/ends_at","order":"ascending"}]]}""";
    private static final int OPS_PER_REQUEST = 100;

    private EngineBulkProbe() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<byte[]> bodies = bodies(CatalogueGenerator.vehicles(count, 3));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS)) {
            for (int round = 1; round <= rounds; round++) {
                String db = "seed-" + round;
                engine.createDatabase(Json.object().put("id", db), Throughput.NONE);
                ObjectNode container = (ObjectNode) Json.parse("{\"id\":\"catalogue\",\"partitionKey\":{\"paths\":"
                        + "[\"/make\"]},\"indexingPolicy\":" + TUNED + "}", "probe");
                engine.createContainer(db, container, Throughput.NONE, 1);
                ContainerHandle catalogue = engine.container(db, "catalogue");
                long cpu = threads.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                int failed = 0;
                for (byte[] body : bodies) {
                    BatchResult r = catalogue.bulk(body, RequestOptions.NONE);
                    failed += (int) r.results().stream().filter(o -> !o.isSuccess()).count();
                }
                System.out.printf(Locale.ROOT, "round %d: %,d bulk upserts (%d failed): %.1f µs CPU and %.1f µs wall"
                                + " per item%n", round, count, failed,
                        (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / count,
                        (System.nanoTime() - wall) / 1e3 / count);
            }
        }
    }

    /** The bulk request bodies: {@value #OPS_PER_REQUEST} upserts each, with each vehicle's partition key. */
    private static List<byte[]> bodies(List<ObjectNode> vehicles) {
        List<byte[]> out = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < vehicles.size(); i++) {
            ObjectNode v = vehicles.get(i);
            body.append(i % OPS_PER_REQUEST == 0 ? "[" : ",").append("{\"operationType\":\"Upsert\",\"partitionKey\":")
                    .append(Json.NODES.textNode("[\"" + v.get("make").asText() + "\"]")).append(",\"resourceBody\":")
                    .append(v).append('}');
            if (i % OPS_PER_REQUEST == OPS_PER_REQUEST - 1 || i == vehicles.size() - 1) {
                out.add(body.append(']').toString().getBytes(StandardCharsets.UTF_8));
                body.setLength(0);
            }
        }
        return out;
    }
}
