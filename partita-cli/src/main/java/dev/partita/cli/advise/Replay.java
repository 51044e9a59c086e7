package dev.partita.cli.advise;

import dev.partita.core.ContainerHandle;
import dev.partita.core.request.RequestOptions;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.cli.tools.PartitionKeys;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Replays a workload against candidate containers on an in-process Partita, through the official SDK with its
 * throttling retries off (a 429 is counted, not waited for), on a virtual clock that advances by one request's share
 * of a second per request. The charges are Partita's cost model's; the throttling its per-partition budgets'.
 */
final class Replay implements AutoCloseable {
    static final String DATABASE = "advise";
    private static final double GB = 1024.0 * 1024 * 1024;

    private final VirtualClock clock = new VirtualClock(java.time.Clock.systemUTC().instant());
    private final Engine engine;
    private final PartitaServer server;
    private final CosmosClient client;
    private int containers;

    /** What one operation cost under one candidate during the replay. */
    record Measured(long count, double totalCharge, long throttled) {
        /** The charge of an operation that ran (a throttled one costs nothing and says nothing about the price). */
        double averageCharge() {
            return count == throttled ? 0 : totalCharge / (count - throttled);
        }

        double throttledShare() {
            return count == 0 ? 0 : throttled / (double) count;
        }
    }

    Replay(Limits limits) {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        // the SDK's start-up notices would drown the report
        System.setProperty("org.slf4j.simpleLogger.log.com.azure.cosmos", "error");
        engine = Engine.open(new MemoryStore(), clock, limits);
        // the point of the replay: each candidate's partitions run out of request units as they would in the service
        engine.capacity().enforce(true);
        engine.createDatabase(Json.object().put("id", DATABASE), Throughput.NONE);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY).gatewayMode()
                .endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient();
    }

    /** The physical partitions the planned container would start with (capacity.md §2.6). */
    static int partitionsFor(Workload w, Limits limits) {
        int byThroughput = (int) Math.ceil(w.throughput() / (double) limits.manualRusPerInitialPartition());
        int bySize = (int) Math.ceil(w.dataSizeGb() * GB / limits.maxPhysicalPartitionBytes());
        return Math.max(1, Math.max(byThroughput, bySize));
    }

    Map<String, Measured> run(Candidate candidate, List<ObjectNode> sample, Workload workload, int partitions) {
        String id = "c" + containers++;
        ObjectNode body = Json.object().put("id", id);
        ObjectNode key = body.putObject("partitionKey");
        candidate.paths().forEach(key.putArray("paths")::add);
        key.put("kind", candidate.paths().size() > 1 ? "MultiHash" : "Hash").put("version", 2);
        ContainerInfo info = engine.createContainer(DATABASE, body, Throughput.manual(workload.throughput()),
                partitions);
        List<ObjectNode> shaped = sample.stream().map(candidate::shape).toList();
        // the sample is there before the replay's clock starts: seeded unthrottled, its charges then forgotten
        engine.capacity().enforce(info, false);
        ContainerHandle seed = engine.container(info);
        for (ObjectNode item : shaped) {
            seed.upsert(Json.bytes(item), RequestOptions.NONE);
        }
        engine.capacity().enforce(info, true).restart(info);
        CosmosContainer container = client.getDatabase(DATABASE).getContainer(id);
        Picker picker = new Picker(shaped, workload.hotspot(), new Random(42));
        Random choose = new Random(7);
        double total = workload.totalRate();
        long operations = Math.round(total * workload.durationSeconds());
        Duration step = Duration.ofNanos((long) (1_000_000_000L / total));
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Double> charges = new LinkedHashMap<>();
        for (Workload.Operation op : workload.operations()) {
            counts.put(op.name(), new long[2]);
            charges.put(op.name(), 0.0);
        }
        for (long i = 0; i < operations; i++) {
            Workload.Operation op = pick(workload.operations(), total, choose);
            ObjectNode item = picker.next();
            long[] c = counts.get(op.name());
            c[0]++;
            try {
                charges.merge(op.name(), execute(container, candidate, op, item), Double::sum);
            } catch (CosmosException e) {
                if (e.getStatusCode() != 429) {
                    throw e;
                }
                c[1]++;
            }
            clock.advance(step);
        }
        Map<String, Measured> out = new LinkedHashMap<>();
        counts.forEach((name, c) -> out.put(name, new Measured(c[0], charges.get(name), c[1])));
        return out;
    }

    private static double execute(CosmosContainer container, Candidate candidate, Workload.Operation op,
            ObjectNode item) {
        return switch (op.type()) {
            case WRITE -> container.upsertItem(item, key(candidate, item), null).getRequestCharge();
            case READ -> candidate.addressableBy(op.knows())
                    ? container.readItem(item.get("id").asText(), key(candidate, item), JsonNode.class)
                            .getRequestCharge()
                    : query(container, new SqlQuerySpec("SELECT * FROM c WHERE c.id = @id",
                            List.of(new SqlParameter("@id", item.get("id").asText()))));
            case QUERY -> {
                List<SqlParameter> params = new ArrayList<>();
                op.parameters().forEach((name, field) -> params.add(new SqlParameter(name,
                        Json.MAPPER.convertValue(item.path(field), Object.class))));
                yield query(container, new SqlQuerySpec(op.query(), params));
            }
        };
    }

    /** A whole query: every page from every range the SDK asked, so a fan-out pays for each partition it visits. */
    private static double query(CosmosContainer container, SqlQuerySpec spec) {
        double charge = 0;
        for (FeedResponse<JsonNode> page : container.queryItems(spec, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(100)) {
            charge += page.getRequestCharge();
        }
        return charge;
    }

    private static PartitionKey key(Candidate candidate, ObjectNode item) {
        return PartitionKeys.of(item, candidate.paths());
    }

    private static Workload.Operation pick(List<Workload.Operation> ops, double total, Random r) {
        double x = r.nextDouble() * total;
        for (Workload.Operation op : ops) {
            x -= op.rate();
            if (x < 0) {
                return op;
            }
        }
        return ops.get(ops.size() - 1);
    }

    /** Picks the item an operation touches: the hot spot's share from its items, the rest uniformly. */
    private static final class Picker {
        private final List<ObjectNode> all;
        private final List<ObjectNode> hot;
        private final double hotShare;
        private final Random random;

        Picker(List<ObjectNode> items, Workload.Hotspot hotspot, Random random) {
            this.all = items;
            this.hot = hotspot == null ? List.of() : items.stream()
                    .filter(i -> Candidate.text(i.get(hotspot.field())).equals(hotspot.value())).toList();
            this.hotShare = hot.isEmpty() ? 0 : hotspot.share();
            this.random = random;
        }

        ObjectNode next() {
            List<ObjectNode> from = random.nextDouble() < hotShare ? hot : all;
            return from.get(random.nextInt(from.size()));
        }
    }

    @Override
    public void close() {
        client.close();
        server.close();
        engine.close();
    }
}
