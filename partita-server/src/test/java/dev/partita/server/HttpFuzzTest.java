package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * A bounded, seeded fuzz of the gateway: random paths, headers, bodies, queries, batches, signatures and HTTP framing
 * against an in-process Partita with real resources. No request may be answered 5xx, none may hang (a generous bound,
 * a hang detector rather than a speed test), and the server still serves a point read at the end.
 *
 * <p>Deterministic: request {@code i} is generated from {@code seed} and {@code i} alone, whichever thread sends it.
 * {@code -Dpartita.fuzz.seed=N} picks another seed, {@code -Dpartita.fuzz.requests=N} a longer run.
 */
class HttpFuzzTest {
    static final long SEED = Long.getLong("partita.fuzz.seed", 20_240_611L);
    static final int REQUESTS = Integer.getInteger("partita.fuzz.requests", 20_000);
    static final int THREADS = 4;
    static final int HANG_MILLIS = 30_000;
    /** One in this many requests is a raw framing case on its own connection. */
    static final int FRAMING_EVERY = 20;
    /** A broken server would fail every request: stop after this many failures, each already logged. */
    static final int MAX_FAILURES = 20;

    /**
     * Known 5xx answers, by kind and status, each with why it is acceptable: 501 is what RFC 9112 §6.1 asks for a
     * transfer coding the server does not implement (TransferCodingTest pins it). Found 5xx bugs are listed here
     * only while they are open, so the rest of the run still judges everything else.
     */
    static final Map<String, String> KNOWN_5XX = Map.of("framing 501",
            "a transfer coding other than chunked: Not Implemented (RFC 9112 §6.1)");

    @Test
    void noRequestIsAnswered5xxOrHangs() throws Exception {
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("127.0.0.1", 0, false, null,
                        Keys.emulator(), false))) {
            FuzzRequests requests = setUp(engine, server.port());
            Map<String, LongAdder> byKind = new ConcurrentHashMap<>();
            Map<Integer, LongAdder> byStatus = new ConcurrentHashMap<>();
            List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger next = new AtomicInteger();
            long t0 = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    try (FuzzWire wire = new FuzzWire(server.port(), HANG_MILLIS)) {
                        for (int i = next.getAndIncrement(); i < REQUESTS && failures.size() < MAX_FAILURES;
                                i = next.getAndIncrement()) {
                            send(i, requests, wire, server.port(), byKind, byStatus, failures);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get();
            }
            pool.shutdown();
            System.out.printf("HttpFuzzTest: seed %d, %d requests in %.1f s; by kind %s; by status %s%n", SEED,
                    REQUESTS, (System.nanoTime() - t0) / 1e9, new TreeMap<>(byKind), new TreeMap<>(byStatus));
            assertThat(failures).as("5xx answers and hangs (seed " + SEED + ")").isEmpty();

            FuzzRequest read = new FuzzRequest("final", "GET", "/dbs/keep/colls/k/docs/sentinel")
                    .header("x-ms-documentdb-partitionkey", "[\"s\"]");
            try (FuzzWire wire = new FuzzWire(server.port(), HANG_MILLIS)) {
                FuzzWire.Response r = wire.exchange(read.bytes(), false);
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                assertThat(r.body()).contains("\"sentinel\"");
            }
        }
    }

    private static void send(int i, FuzzRequests requests, FuzzWire wire, int port, Map<String, LongAdder> byKind,
            Map<Integer, LongAdder> byStatus, List<String> failures) {
        Random r = new Random(SEED * 1_000_003L + i);
        String kind = "?";
        String description = "?";
        try {
            int status;
            String response;
            if (i % FRAMING_EVERY == FRAMING_EVERY - 1) {
                kind = "framing";
                FuzzFraming.Outcome o = FuzzFraming.run(r, port, HANG_MILLIS);
                description = o.description();
                status = o.status();
                response = o.response();
            } else {
                FuzzRequest q = requests.next(r);
                kind = q.kind;
                description = q.describe();
                FuzzWire.Response resp = wire.exchange(q.bytes(), q.method.equals("HEAD"));
                status = resp.status();
                response = resp.head() + FuzzRequest.cut(resp.body(), 1500);
            }
            byKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
            byStatus.computeIfAbsent(status, k -> new LongAdder()).increment();
            if (status >= 500 && !KNOWN_5XX.containsKey(kind + " " + status)) {
                fail(failures, "request #" + i + " (seed " + SEED + ") answered " + status + ":\n" + description
                        + "\n--- response:\n" + response);
            }
        } catch (SocketTimeoutException e) {
            wire.close();
            fail(failures, "request #" + i + " (seed " + SEED + ") got no answer within " + HANG_MILLIS + " ms:\n"
                    + description);
        } catch (Exception e) {
            wire.close();
            fail(failures, "request #" + i + " (seed " + SEED + ", " + kind + ") failed on the client: " + e + "\n"
                    + description);
        }
    }

    private static void fail(List<String> failures, String text) {
        System.out.println("HttpFuzzTest FAILURE: " + text);
        failures.add(text);
    }

    /** The database, containers (with explicit physical partitions) and items most requests aim at. */
    private static FuzzRequests setUp(Engine engine, int port) throws Exception {
        engine.createDatabase(Json.object().put("id", FuzzRequests.DB), Throughput.NONE);
        engine.createContainer(FuzzRequests.DB, Json.object().put("id", "c").set("partitionKey", Json.object()
                .put("kind", "Hash").put("version", 2).set("paths", Json.NODES.arrayNode().add("/pk"))),
                Throughput.manual(12_000), 4);
        engine.createContainer(FuzzRequests.DB, Json.object().put("id", "h").set("partitionKey", Json.object()
                .put("kind", "MultiHash").put("version", 2).set("paths", Json.NODES.arrayNode().add("/pk").add("/q"))),
                Throughput.manual(6_000), 3);
        engine.createDatabase(Json.object().put("id", "keep"), Throughput.NONE);
        engine.createContainer("keep", Json.object().put("id", "k").set("partitionKey", Json.object()
                .put("kind", "Hash").put("version", 2).set("paths", Json.NODES.arrayNode().add("/pk"))),
                Throughput.manual(400), 0);
        try (FuzzWire wire = new FuzzWire(port, HANG_MILLIS)) {
            create(wire, "/dbs/keep/colls/k/docs", "[\"s\"]", "{\"id\":\"sentinel\",\"pk\":\"s\"}");
            for (int i = 0; i < 40; i++) {
                String pk = "p" + i % 10;
                create(wire, "/dbs/fuzz/colls/c/docs", "[\"" + pk + "\"]", "{\"id\":\"i" + i + "\",\"pk\":\"" + pk
                        + "\",\"a\":{\"b\":" + i + "},\"tags\":[\"t" + i % 3 + "\"],\"n\":" + i + "}");
                create(wire, "/dbs/fuzz/colls/h/docs", "[\"" + pk + "\",\"q\"]", "{\"id\":\"i" + i + "\",\"pk\":\""
                        + pk + "\",\"q\":\"q\",\"n\":" + i + "}");
            }
        }
        return new FuzzRequests(engine.readDatabase(FuzzRequests.DB).rid(),
                engine.readContainer(FuzzRequests.DB, "c").rid());
    }

    private static void create(FuzzWire wire, String path, String pk, String body) throws Exception {
        FuzzRequest q = new FuzzRequest("setup", "POST", path).header("Content-Type", "application/json")
                .header("x-ms-documentdb-partitionkey", pk).body(body);
        FuzzWire.Response r = wire.exchange(q.bytes(), q.method.equals("HEAD"));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
}
