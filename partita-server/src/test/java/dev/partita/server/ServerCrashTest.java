package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.CrashChecks;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.RocksStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's default store survives {@code kill -9} under SDK load: a child JVM serves Partita on a RocksStore while
 * SDK clients create, upsert and write transactional batches; the parent kills it with SIGKILL at a random moment,
 * 20 times (100 with {@code -Dpartita.crash.rounds=100}), and after each round checks the store: every acknowledged
 * write is there with its acknowledged etag, every acknowledged batch is whole, and no batch is there in part.
 */
class ServerCrashTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final int ROUNDS = Integer.getInteger("partita.crash.rounds", 20);
    static final int WRITERS = 3;

    @TempDir
    Path dir;

    record Ack(String id, String etag) {
    }

    @Test
    void acknowledgedSdkWritesSurviveSigkillOfTheServer() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ServerCrashTest seed " + seed);
        Random random = new Random(seed);
        List<Ack> acked = new ArrayList<>();
        List<String[]> batches = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Process child = new ProcessBuilder(javaBinary(), "-Xshare:auto", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    CrashServerMain.class.getName(), dir.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            int port = port(child);
            CosmosClient client = new CosmosClientBuilder().endpoint("http://127.0.0.1:" + port + "/")
                    .key(Keys.EMULATOR_PRIMARY).gatewayMode().endpointDiscoveryEnabled(false)
                    .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                    .buildClient();
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            AtomicBoolean dead = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                String prefix = "r" + round + "w" + w + "-";
                writers.add(Thread.ofPlatform().start(() -> write(c, prefix, dead, acked, batches)));
            }
            Thread.sleep(150 + random.nextInt(500));
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            dead.set(true);
            // writes in flight against the dead server fail once their client is closed (the SDK would retry them)
            client.close();
            for (Thread t : writers) {
                t.join(60_000);
                assertThat(t.isAlive()).as("a writer still waiting on the dead server").isFalse();
            }
            verify(acked, batches);
        }
        assertThat(acked.size()).as("writes acknowledged over all rounds").isGreaterThan(ROUNDS);
    }

    /** Writes until the server dies; records a write only once the SDK returned it as done. */
    private static void write(CosmosContainer c, String prefix, AtomicBoolean dead, List<Ack> acked,
            List<String[]> batches) {
        for (int n = 0; !dead.get(); n++) {
            String pk = "p" + (n % 7);
            try {
                if (n % 4 == 3) {
                    String[] ids = {prefix + n + "a", prefix + n + "b", prefix + n + "c"};
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                    for (String id : ids) {
                        batch.createItemOperation(doc(id, pk));
                    }
                    CosmosBatchResponse r = c.executeCosmosBatch(batch);
                    if (r.isSuccessStatusCode()) {
                        synchronized (batches) {
                            batches.add(ids);
                        }
                    }
                } else {
                    String id = prefix + n;
                    CosmosItemResponse<ObjectNode> r = n % 4 == 1 ? c.upsertItem(doc(id, pk)) : c.createItem(doc(id, pk));
                    synchronized (acked) {
                        acked.add(new Ack(id, r.getETag()));
                    }
                }
            } catch (RuntimeException e) {
                // the server is gone (or going): nothing was acknowledged for this write
                if (dead.get()) {
                    return;
                }
            }
        }
    }

    static ObjectNode doc(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("payload", "x".repeat(200));
    }

    private void verify(List<Ack> acked, List<String[]> batches) {
        try (Engine engine = Engine.open(RocksStore.open(dir), Clock.systemUTC(), Limits.DEFAULTS)) {
            ContainerInfo c = engine.readContainer("db", "c");
            Map<String, String> etagById = new HashMap<>();
            synchronized (acked) {
                acked.forEach(a -> etagById.put(a.id(), a.etag()));
            }
            synchronized (batches) {
                CrashChecks.assertAcknowledgedWritesSurvived(c, CrashChecks.storedItems(engine, c), etagById,
                        List.copyOf(batches));
            }
        }
    }

    private static int port(Process child) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String line;
        while ((line = in.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith("LISTENING ")) {
                return Integer.parseInt(line.substring("LISTENING ".length()).trim());
            }
        }
        throw new IllegalStateException("The server child did not start");
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
