package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.util.Environment;

/**
 * The durability promise, tested the way it fails in life: a writer process is killed with {@code SIGKILL} at a random
 * moment, many times over the same folder. Every batch it acknowledged must be there, byte for byte, and no batch may
 * be there in part. Run with {@code -Dcrash.seed=N} to replay a failing sequence of kill times.
 */
class RocksStoreCrashTest {
    private static final int ROUNDS = 20;

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void killedWritersLoseNoAcknowledgedBatchAndLeaveNoHalfBatch() throws Exception {
        long seed = Long.getLong("crash.seed", System.nanoTime());
        System.out.println("RocksStoreCrashTest seed: " + seed + " (rerun with -Dcrash.seed=" + seed + ")");
        Random random = new Random(seed);
        Path dir = tmp.resolve("db");
        List<String> command = childCommand(dir);
        long next = 0; // the first batch number the next writer writes
        for (int round = 0; round < ROUNDS; round++) {
            long lastAck = runAndKill(command, next, 100 + random.nextInt(501), round);
            assertThat(lastAck).as("round %d acknowledged something", round).isGreaterThanOrEqualTo(next);
            long last = verify(dir, next, round == ROUNDS - 1);
            assertThat(last).as("round %d: last batch present (seed %d)", round, seed).isGreaterThanOrEqualTo(lastAck);
            next = last + 1;
        }
        System.out.println("RocksStoreCrashTest: " + ROUNDS + " kills, " + next + " batches, all acknowledged present");
    }

    /** Starts a writer, waits for its first acknowledgement, kills it {@code killAfterMillis} later. */
    private long runAndKill(List<String> command, long first, int killAfterMillis, int round) throws Exception {
        List<String> args = new ArrayList<>(command);
        args.add(Long.toString(first));
        Path stderr = tmp.resolve("writer-" + round + ".err");
        Process child = new ProcessBuilder(args).redirectError(stderr.toFile()).start();
        AtomicLong lastAck = new AtomicLong(-1);
        Thread reader = Thread.ofPlatform().daemon().start(() -> readAcks(child.getInputStream(), lastAck));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (lastAck.get() < 0) {
                if (!child.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("the writer did not start: " + Files.readString(stderr));
                }
                Thread.sleep(5);
            }
            Thread.sleep(killAfterMillis);
            assertThat(child.isAlive()).as("writer alive before the kill: %s", Files.readString(stderr)).isTrue();
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no RocksDB close
            child.waitFor(30, TimeUnit.SECONDS);
        }
        reader.join(30_000); // lines written before the kill are still in the pipe: they count as acknowledged
        return lastAck.get();
    }

    private static void readAcks(InputStream in, AtomicLong lastAck) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith("ACK ")) {
                    // A line cut by the kill can only under-state the count, and max() ignores it.
                    lastAck.accumulateAndGet(Long.parseLong(line.substring(4)), Math::max);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the pipe breaks when the child dies; what was read is what counts
        }
    }

    /**
     * Checks the store against the batch definitions: the change log is exactly batches {@code 0..last}; each item and
     * its one index entry reflect the last batch that wrote the item. A half-applied batch breaks one of these.
     * Values of batches from {@code checkFrom} on (all of them if {@code everything}) are compared byte for byte.
     */
    private static long verify(Path dir, long checkFrom, boolean everything) {
        try (RocksStore store = RocksStore.open(dir); Snapshot s = store.snapshot()) {
            long expected = 0;
            try (Cursor log = s.scan(new byte[] {CrashWriter.LOG}, new byte[] {CrashWriter.LOG + 1})) {
                while (log.next()) {
                    assertThat(log.key()).as("change log is gap-free").isEqualTo(CrashWriter.logKey(expected));
                    if (everything || expected >= checkFrom) {
                        assertThat(log.value()).isEqualTo(CrashWriter.value(expected, 'l'));
                    }
                    expected++;
                }
            }
            long last = expected - 1;
            for (int item = 0; item < CrashWriter.ITEMS; item++) {
                // the last batch that wrote this item: the largest n <= last with n % ITEMS == item
                long writer = last - Math.floorMod(last - item, CrashWriter.ITEMS);
                byte[] value = s.get(CrashWriter.itemKey(item));
                List<String> index = new ArrayList<>();
                try (Cursor c = s.scan(CrashWriter.indexKey(item, 0), CrashWriter.indexKey(item + 1, 0))) {
                    while (c.next()) {
                        index.add(Bytes.hex(c.key()) + "=" + Bytes.hex(c.value()));
                    }
                }
                if (writer < 0) {
                    assertThat(value).as("item %d never written", item).isNull();
                    assertThat(index).isEmpty();
                } else {
                    assertThat(value).as("item %d", item).isNotNull();
                    assertThat(CrashWriter.batchOf(value)).as("batch that last wrote item %d", item).isEqualTo(writer);
                    assertThat(value).isEqualTo(CrashWriter.value(writer, 'i'));
                    String current = Bytes.hex(CrashWriter.indexKey(item, writer)) + "="
                            + Bytes.hex(CrashWriter.value(writer, 'x'));
                    assertThat(index).as("item %d has exactly its current index entry", item).containsExactly(current);
                }
            }
            return last;
        }
    }

    /** The same java binary and classpath as this JVM, a small heap, and the native library extracted once. */
    private List<String> childCommand(Path dir) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + tmp));
        Path nativeDir = extractNativeLibrary();
        if (nativeDir != null) {
            command.add("-Djava.library.path=" + nativeDir);
        }
        command.addAll(List.of("-cp", childClasspath(), CrashWriter.class.getName(), dir.toString()));
        return command;
    }

    /**
     * This JVM's classpath with the store package of each class folder copied once: builds that share
     * {@code target/} may recompile those folders while the writers keep starting, and a writer that cannot load its
     * classes would fail the test for nothing. The writer needs only the store package.
     */
    private String childClasspath() throws IOException {
        List<String> entries = new ArrayList<>();
        String pkg = RocksStore.class.getPackageName().replace('.', '/');
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path source = Path.of(entry).resolve(pkg);
            if (!Files.isDirectory(source)) {
                entries.add(entry);
                continue;
            }
            Path copy = tmp.resolve("classes-" + entries.size());
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Path target = copy.resolve(pkg).resolve(source.relativize(file).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target);
                }
            }
            entries.add(copy.toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Without this each child would copy ~15 MB out of the jar into a temp file that SIGKILL never deletes. */
    private Path extractNativeLibrary() throws IOException {
        String name = Environment.getJniLibraryFileName("rocksdb");
        try (InputStream in = RocksStore.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                return null; // the child falls back to extracting into its own java.io.tmpdir under tmp
            }
            Path nativeDir = Files.createDirectories(tmp.resolve("native"));
            Files.copy(in, nativeDir.resolve(name));
            return nativeDir;
        }
    }
}
