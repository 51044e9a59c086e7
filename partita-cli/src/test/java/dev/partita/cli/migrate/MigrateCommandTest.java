package dev.partita.cli.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code partita migrate} against a running Partita through the official SDK: a source with three physical
 * partitions keyed {@code /tenantId}, copied into targets with other keys while the test writes to the source.
 */
class MigrateCommandTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] STATUSES = {"new", "active", "closed"};
    static Engine engine;
    static PartitaServer server;
    static CosmosClient client;
    static CosmosDatabase db;

    @TempDir
    Path dir;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void start() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        client = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY).gatewayMode()
                .endpointDiscoveryEnabled(false).buildClient();
        client.createDatabaseIfNotExists("shop");
        db = client.getDatabase("shop");
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        engine.close();
    }

    @Test
    void copiesIntoAHierarchicalKeyWithAnotherIndexingPolicyAndLeavesTheSourceUntouched() throws IOException {
        CosmosContainer source = source("orders", 300);
        Map<String, String> before = etags(source);
        Path policy = Files.writeString(dir.resolve("policy.json"), "{\"indexingMode\":\"consistent\","
                + "\"includedPaths\":[{\"path\":\"/status/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}");

        int code = migrate("--source-container", "orders", "--target-container", "orders2",
                "--target-key", "/tenantId,/id", "--target-indexing-policy", policy.toString(), "--verify-by", "/status");

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Created shop/orders2 keyed [/tenantId, /id]")
                .contains("Verified: 300 items in the source, 300 in the target; 0 missing, 0 only in the target, "
                        + "0 different").contains("Counts per /status: 3 value(s), all equal");
        CosmosContainerProperties target = db.getContainer("orders2").read().getProperties();
        assertThat(target.getPartitionKeyDefinition().getPaths()).containsExactly("/tenantId", "/id");
        assertThat(target.getIndexingPolicy().getExcludedPaths()).anyMatch(p -> p.getPath().equals("/*"));
        ObjectNode copy = db.getContainer("orders2").readItem("o7", new PartitionKeyBuilder().add("t0").add("o7")
                .build(), ObjectNode.class).getItem();
        assertThat(copy.get("n").asInt()).isEqualTo(7);
        assertThat(copy.get("lines").get(1).get("qty").asInt()).isEqualTo(2);
        assertThat(etags(source)).as("the source is only read").isEqualTo(before);
        assertThat(checkpoint("shop.orders.to.shop.orders2")).satisfies(c -> {
            assertThat(c.copyDone()).isTrue();
            assertThat(c.positions()).hasSize(3).allMatch(p -> p.continuation() != null);
        });

        // a rerun after completion finds nothing to do and verifies again
        out.reset();
        assertThat(migrate("--source-container", "orders", "--target-container", "orders2")).isZero();
        assertThat(out.toString()).contains("Resuming shop.orders.to.shop.orders2: copy done")
                .doesNotContain("Pass ").contains("0 missing, 0 only in the target, 0 different");
        assertThat(etags(source)).isEqualTo(before);
    }

    @Test
    void writesDuringTheMigrationAreCaughtUpAndDeletesAndKeyChangesAreRepaired() {
        CosmosContainer source = source("live", 200);
        AtomicBoolean written = new AtomicBoolean();
        int code = migrate(copied -> {
            // once every original item is copied, so the changes below all reach the target through the catch-up
            if (copied >= 200 && written.compareAndSet(false, true)) {
                for (int i = 0; i < 30; i++) {
                    source.upsertItem(order(1000 + i));                      // new items
                }
                source.upsertItem(order(5).put("status", "refunded"));      // changed target keys
                source.upsertItem(order(199).put("status", "refunded"));
                source.upsertItem(order(8).put("n", -8));                   // a changed item
                source.deleteItem("o6", new PartitionKey("t6"), new CosmosItemRequestOptions());
            }
        }, "--source-container", "live", "--target-container", "live2", "--target-key", "/status", "--page-size", "40",
                "--verify-by", "/status");

        assertThat(written).isTrue();
        assertThat(code).as("o6 was deleted in the source: not in the latest-version feed").isEqualTo(1);
        assertThat(out.toString()).contains("Verified: 229 items in the source, 232 in the target; 0 missing, "
                + "1 only in the target, 0 different, 2 with a stale copy under an old target key")
                .contains("only in the target: id o6").contains("stale copy in the target: id o199")
                .contains("stale copy in the target: id o5").contains("Counts per /status: 4 value(s), some differ");
        CosmosContainer target = db.getContainer("live2");
        assertThat(target.readItem("o1029", new PartitionKey(STATUSES[1029 % 3]), ObjectNode.class).getItem()
                .get("n").asInt()).isEqualTo(1029);
        assertThat(target.readItem("o199", new PartitionKey("refunded"), ObjectNode.class).getStatusCode())
                .isEqualTo(200);
        assertThat(target.readItem("o8", new PartitionKey(STATUSES[8 % 3]), ObjectNode.class).getItem().get("n")
                .asInt()).isEqualTo(-8);

        out.reset();
        assertThat(migrate("--source-container", "live", "--target-container", "live2", "--repair",
                "--verify-by", "/status")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Repaired 3 item(s) with 5 target write(s)")
                .contains("Verified: 229 items in the source, 229 in the target; 0 missing, 0 only in the target, "
                        + "0 different.").contains("Counts per /status: 4 value(s), all equal");
        assertThat(count("live2")).isEqualTo(229);
    }

    @Test
    void aCrashInTheMiddleResumesFromTheCheckpointAndConverges() {
        CosmosContainer source = source("crash", 400);
        Map<String, String> before = etags(source);
        int code = migrate(copied -> {
            if (copied >= 150) {
                throw new IllegalStateException("simulated crash");
            }
        }, "--source-container", "crash", "--target-container", "crash2", "--target-key", "/n", "--page-size", "50");
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("simulated crash");
        Checkpoint stopped = checkpoint("shop.crash.to.shop.crash2");
        assertThat(stopped.copyDone()).isFalse();
        assertThat(stopped.copied()).isBetween(100L, 150L);   // the page in flight was written, not checkpointed
        assertThat(count("crash2")).isBetween(150L, 399L);

        out.reset();
        assertThat(migrate("--source-container", "crash", "--target-container", "crash2")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Resuming shop.crash.to.shop.crash2 after " + stopped.copied())
                .contains("Verified: 400 items in the source, 400 in the target; 0 missing, 0 only in the target, "
                        + "0 different");
        assertThat(count("crash2")).isEqualTo(400);
        Checkpoint done = checkpoint("shop.crash.to.shop.crash2");
        assertThat(done.copied()).as("only the page in flight was copied twice").isLessThanOrEqualTo(450);
        assertThat(etags(source)).isEqualTo(before);
    }

    @Test
    void verificationFindsTamperedMissingAndStrayItemsByIdOnlyAndRepairFixesThem() {
        source("tamper", 120);
        assertThat(migrate("--source-container", "tamper", "--target-container", "tamper2", "--target-key", "/n"))
                .isZero();
        CosmosContainer target = db.getContainer("tamper2");
        target.upsertItem(order(3).put("status", "SECRET-VALUE"));
        target.deleteItem("o4", new PartitionKey(4), new CosmosItemRequestOptions());
        target.upsertItem(order(5000));

        out.reset();
        assertThat(migrate("--source-container", "tamper", "--target-container", "tamper2")).isEqualTo(1);
        assertThat(out.toString()).contains("1 missing, 1 only in the target, 1 different")
                .contains("missing in the target: id o4").contains("only in the target: id o5000")
                .contains("different: id o3").doesNotContain("SECRET");
        assertThat(err.toString()).contains("rerun with --repair");

        out.reset();
        assertThat(migrate("--source-container", "tamper", "--target-container", "tamper2", "--repair")).isZero();
        assertThat(out.toString()).contains("Repaired 3 item(s)")
                .contains("Verified: 120 items in the source, 120 in the target; 0 missing");
        assertThat(target.readItem("o3", new PartitionKey(3), ObjectNode.class).getItem().get("status").asText())
                .isEqualTo(STATUSES[0]);
    }

    @Test
    void cutoverWritesAMarkerAfterAFinalCatchUpAndACleanVerification() {
        source("cut", 50);
        assertThat(migrate("--source-container", "cut", "--target-container", "cut2", "--target-database", "next",
                "--cutover")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Cutover marker shop.cut.to.next.cut2.cutover written");
        ObjectNode marker = client.getDatabase("next").getContainer("migrations")
                .readItem("shop.cut.to.next.cut2.cutover", new PartitionKey("shop.cut.to.next.cut2.cutover"),
                        ObjectNode.class).getItem();
        assertThat(marker.get("kind").asText()).isEqualTo(CutoverMarker.KIND);
        assertThat(marker.get("verified").asBoolean()).isTrue();
        assertThat(marker.get("items").asLong()).isEqualTo(50);
        assertThat(marker.get("target").asText()).isEqualTo("next/cut2");
        assertThat(marker.get("positions")).hasSize(3);
        assertThat(marker.get("at").asText()).isNotBlank();
    }

    @Test
    void noCutoverWhileTheSourceKeepsChanging() {
        CosmosContainer source = source("busy", 60);
        int[] written = {0};
        int code = migrate(copied -> source.upsertItem(order(10_000 + written[0]++)),   // a write per copied page
                "--source-container", "busy", "--target-container", "busy2", "--page-size", "20",
                "--max-catch-up-passes", "2", "--cutover");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("(writes are still arriving)");
        assertThat(out.toString()).doesNotContain("Cutover marker");
        assertThat(client.getDatabase("shop").getContainer("migrations").queryItems(
                "SELECT VALUE COUNT(1) FROM c WHERE c.id = 'shop.busy.to.shop.busy2.cutover'",
                new CosmosQueryRequestOptions(), Long.class).stream().mapToLong(Long::longValue).sum()).isZero();
    }

    @Test
    void theRuBudgetHoldsOnAverage() {
        source("paced", 100);
        long started = System.nanoTime();
        MigrateCommand command = command(copied -> { });
        int code = run(command, "--source-container", "paced", "--target-container", "paced2", "--target-key", "/n",
                "--max-ru-per-second", "400", "--page-size", "25");
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(code).isZero();
        double spent = command.budget.spent();
        assertThat(spent).isGreaterThan(400);   // enough work for the budget to matter
        // pacing can only make the run slower, so a lower bound on the time is safe on a loaded machine
        assertThat(seconds).as("%.0f RU in %.2f s", spent, seconds).isGreaterThanOrEqualTo(spent / 400 * 0.95);
        System.out.printf("budget 400 RU/s: %.0f RU in %.2f s = %.0f RU/s%n", spent, seconds, spent / seconds);
    }

    @Test
    void sourceReadsAndTargetWritesGoOutAtLowPriority() throws IOException {
        source("prio", 30);
        try (RecordingProxy proxy = new RecordingProxy(server.endpoint())) {
            MigrateCommand command = command(copied -> { });
            List<String> args = List.of("--endpoint", proxy.endpoint(), "--database", "shop", "--source-container",
                    "prio", "--target-container", "prio2", "--target-key", "/n");
            assertThat(new CommandLine(command).setErr(new java.io.PrintWriter(err, true))
                    .execute(args.toArray(String[]::new))).as(err.toString()).isZero();
            List<RecordingProxy.Seen> docs = proxy.seen.stream().filter(r -> r.path().matches(".*/colls/prio2?/docs.*"))
                    .toList();
            assertThat(docs).extracting(RecordingProxy.Seen::method).contains("GET", "POST");  // feed, query, bulk
            // the SDK sends a query's plan request (tiny, answered by the gateway) outside the throughput group
            assertThat(docs.stream().filter(r -> !r.queryPlan())).as("every item request of the migration")
                    .allMatch(r -> "Low".equals(r.priority()));
            assertThat(docs.stream().filter(r -> r.path().contains("/colls/prio/")).map(RecordingProxy.Seen::method))
                    .as("the source is only read (queries are POSTs)").allMatch(m -> m.equals("GET") || m.equals("POST"));
        }
    }

    @Test
    void refusesToWriteTheSourceOrToReuseATargetWithAnotherKey() {
        source("refuse", 5);
        assertThat(migrate("--source-container", "refuse", "--target-container", "refuse")).isEqualTo(2);
        assertThat(err.toString()).contains("migrate never writes the source");
        db.createContainerIfNotExists(new CosmosContainerProperties("other", "/x"));
        assertThat(migrate("--source-container", "refuse", "--target-container", "other", "--target-key", "/y"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("The target exists with the key [/x], not [/y]");
        assertThat(migrate("--source-container", "absent", "--target-container", "x2")).isEqualTo(2);
        assertThat(migrate("--source-container", "refuse", "--target-container", "r2", "--no-verify", "--cutover"))
                .isEqualTo(2);
        assertThat(migrate("--source-container", "refuse", "--target-container", "r2", "--no-verify")).isZero();
        assertThat(out.toString()).contains("Caught up; not verified").doesNotContain("Verified:");
        assertThat(count("r2")).isEqualTo(5);
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static ObjectNode order(int n) {
        ObjectNode o = JSON.createObjectNode().put("id", "o" + n).put("tenantId", "t" + n % 7).put("n", n)
                .put("status", STATUSES[n % 3]);
        o.putArray("lines").add(JSON.createObjectNode().put("sku", "a").put("qty", 1))
                .add(JSON.createObjectNode().put("sku", "b").put("qty", 2));
        return o;
    }

    /** A source keyed /tenantId with three physical partitions and {@code n} orders. */
    private static CosmosContainer source(String name, int n) {
        db.createContainer(new CosmosContainerProperties(name, "/tenantId"),
                ThroughputProperties.createManualThroughput(18_000));
        CosmosContainer c = db.getContainer(name);
        assertThat(c.getFeedRanges()).hasSize(3);
        for (int i = 0; i < n; i++) {
            c.createItem(order(i));
        }
        return c;
    }

    private static Map<String, String> etags(CosmosContainer c) {
        Map<String, String> out = new TreeMap<>();
        c.queryItems("SELECT c.id, c._etag, c._ts FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
                .forEach(i -> out.put(i.get("id").asText(), i.get("_etag").asText() + "@" + i.get("_ts").asLong()));
        return out;
    }

    private static long count(String container) {
        return db.getContainer(container).queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(),
                Long.class).stream().mapToLong(Long::longValue).sum();
    }

    private static Checkpoint checkpoint(String id) {
        ObjectNode json = db.getContainer("migrations").readItem(id, new PartitionKey(id), ObjectNode.class).getItem();
        return JSON.copy().configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                false).convertValue(json, Checkpoint.class);
    }

    private int migrate(String... args) {
        return migrate(copied -> { }, args);
    }

    private int migrate(Migration.Listener listener, String... args) {
        return run(command(listener), args);
    }

    private MigrateCommand command(Migration.Listener listener) {
        MigrateCommand command = new MigrateCommand();
        command.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        command.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        command.terminal = false;
        command.listener = listener;
        return command;
    }

    private int run(MigrateCommand command, String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoint", server.endpoint(), "--database", "shop"));
        all.addAll(List.of(args));
        return new CommandLine(command).setErr(new java.io.PrintWriter(err, true)).execute(all.toArray(String[]::new));
    }

}
