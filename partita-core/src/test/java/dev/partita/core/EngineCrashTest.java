package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.account.Etags;
import dev.partita.core.item.StoredItem;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.StoreKeys;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that writes items through the engine on a RocksStore with SIGKILL at random moments, 20 times, and
 * checks after every restart: each acknowledged item is there with its acknowledged etag, each acknowledged batch is
 * there whole, no batch is there in part, and every stored item has its change-log record (item and log commit
 * together).
 */
class EngineCrashTest {
    private static final int ROUNDS = 20;

    @TempDir
    Path dir;

    record Ack(String id, String pk, String etag) {
    }

    @Test
    void acknowledgedWritesSurviveSigkill() throws Exception {
        long seed = System.nanoTime();
        System.out.println("EngineCrashTest seed " + seed);
        Random random = new Random(seed);
        List<Ack> acked = new ArrayList<>();
        List<String[]> batches = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Process child = new ProcessBuilder(javaBinary(), "-Xshare:auto", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    EngineCrashWriter.class.getName(), dir.toString(), "r" + round + "-")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            List<String> lines = new ArrayList<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // the child died mid-line: that line was never acknowledged in full
                }
            });
            waitForFirstAck(lines, child);
            Thread.sleep(50 + random.nextInt(400));
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(10_000);
            synchronized (lines) {
                for (String line : lines) {
                    String[] f = line.split(" ");
                    if (f[0].equals("ACK") && f.length == 4) {
                        acked.add(new Ack(f[1], f[2], f[3]));
                    } else if (f[0].equals("BATCH") && f.length == 4) {
                        batches.add(new String[] {f[1], f[2], f[3]});
                    }
                }
            }
            verify(acked, batches);
        }
        assertThat(acked.size()).isGreaterThan(ROUNDS);
    }

    private static void waitForFirstAck(List<String> lines, Process child) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && child.isAlive()) {
            synchronized (lines) {
                if (!lines.isEmpty()) {
                    return;
                }
            }
            Thread.sleep(5);
        }
    }

    /** One scan of the items and one of the change-log keys per round, so the check stays linear in the data. */
    private void verify(List<Ack> acked, List<String[]> batches) {
        try (Engine engine = Engine.open(RocksStore.open(dir), Clock.systemUTC(), Limits.DEFAULTS)) {
            ContainerInfo c = engine.readContainer("db", "c");
            Map<String, StoredItem> stored = CrashChecks.storedItems(engine, c);
            Map<String, String> etagById = new HashMap<>();
            acked.forEach(a -> etagById.put(a.id(), a.etag()));
            CrashChecks.assertAcknowledgedWritesSurvived(c, stored, etagById, batches);
            Set<Long> logged = new HashSet<>();
            long maxLsn = 0;
            try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                    StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
                while (cur.next()) {
                    long lsn = StoreKeys.logLsn(cur.key());
                    logged.add(lsn);
                    maxLsn = Math.max(maxLsn, lsn);
                }
            }
            for (StoredItem item : stored.values()) {
                assertThat(logged.contains(item.lsn())).as("every item version has its change-log record").isTrue();
            }
            assertThat(engine.lsn(c)).as("the LSN counter never goes back").isGreaterThanOrEqualTo(maxLsn);
        }
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
