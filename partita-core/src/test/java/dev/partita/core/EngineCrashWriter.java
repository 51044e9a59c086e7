package dev.partita.core;

import dev.partita.core.request.RequestOptions;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;

import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.item.BatchResult;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.RocksStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The child process of {@link EngineCrashTest}: writes items through the engine as fast as it can and prints
 * {@code ACK <id> <etag>} for single items and {@code BATCH <id1> <id2> <id3>} for atomic batches, each only after the
 * engine returned. It never stops by itself; the parent kills it with SIGKILL. After a burst at full speed it keeps
 * writing one item a millisecond, so that a kill still lands mid-write while the data the parent checks stays small.
 */
public final class EngineCrashWriter {
    private EngineCrashWriter() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        String prefix = args[1];
        Engine engine = Engine.open(RocksStore.open(dir), Clock.systemUTC(), Limits.DEFAULTS);
        try {
            engine.readDatabase("db");
        } catch (ServiceException e) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},"
                            + "\"uniqueKeyPolicy\":{\"uniqueKeys\":[{\"paths\":[\"/u\"]}]}}", "c"), Throughput.NONE, 3);
        }
        ContainerHandle items = engine.container("db", "c");
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (long n = 0; ; n++) {
            if (n > FULL_SPEED_WRITES) {
                pause();
            }
            String pk = "p" + (n % 17);
            if (n % 5 == 4) {
                String a = prefix + n + "a";
                String b = prefix + n + "b";
                String c = prefix + n + "c";
                BatchResult r = items.batch(body(
                        "[" + create(a, pk) + "," + create(b, pk) + "," + create(c, pk) + "]"), RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]")));
                if (r.allSucceeded()) {
                    out.println("BATCH " + a + " " + b + " " + c);
                    out.flush();
                }
            } else {
                String id = prefix + n;
                ItemResult r = items.create(body("{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\",\"u\":\"" + id
                        + "\",\"n\":" + n + "}"), RequestOptions.NONE);
                out.println("ACK " + id + " " + pk + " " + r.etag());
                out.flush();
            }
        }
    }

    private static final long FULL_SPEED_WRITES = 3_000;

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String create(String id, String pk) {
        return "{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\",\"u\":\""
                + id + "\"}}";
    }

    private static byte[] body(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
