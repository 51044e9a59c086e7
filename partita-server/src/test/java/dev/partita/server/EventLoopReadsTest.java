package dev.partita.server;

import static dev.partita.server.ConnectionTest.readAll;
import static dev.partita.server.ConnectionTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.json.Json;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Which thread answers a point read: the event loop when the store's reads never block (and no injected fault can
 * sleep), a virtual thread otherwise; and a long pipeline of reads answered on the loop comes back whole (each next
 * request starts as a new task of the loop, not as a nested call).
 */
class EventLoopReadsTest {
    private static final String READ_X = "x-ms-documentdb-partitionkey: [\"a\"]\r\n";

    /** A memory store that says whether its reads block, and records whether item reads ran on virtual threads. */
    static final class WatchedStore extends ForwardingStore {
        final Set<Boolean> virtualReaders = ConcurrentHashMap.newKeySet();
        final boolean neverBlocks;

        WatchedStore(boolean neverBlocks) {
            super(new MemoryStore());
            this.neverBlocks = neverBlocks;
        }

        @Override
        public byte[] get(byte[] key) {
            if (key.length > 0 && key[0] == 0x02) { // an item key
                virtualReaders.add(Thread.currentThread().isVirtual());
            }
            return inner.get(key);
        }

        @Override
        public boolean readsNeverBlock() {
            return neverBlocks;
        }
    }

    private static Engine engine(Store store) {
        Engine engine = ConnectionTest.engine(store);
        engine.createDatabase(Json.object().put("id", "d"), Throughput.NONE);
        engine.createContainer("d", Json.object().put("id", "c").set("partitionKey", Json.object().put("kind", "Hash")
                .set("paths", Json.NODES.arrayNode().add("/pk"))), Throughput.NONE, 0);
        return engine;
    }

    /** Reads item x once and returns whether the store saw virtual threads (one value per kind seen). */
    private static Set<Boolean> readOnce(WatchedStore store, Engine engine) throws Exception {
        try (PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                Keys.emulator(), false));
                Socket s = new Socket("localhost", server.port())) {
            s.getOutputStream().write(request("GET", "/dbs/d/colls/c/docs/x", "docs", "dbs/d/colls/c/docs/x", READ_X)
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readAll(s.getInputStream(), 1)).startsWith("HTTP/1.1 404");
        }
        return store.virtualReaders;
    }

    @Test
    void aPointReadOnAStoreThatNeverBlocksIsAnsweredOnTheEventLoop() throws Exception {
        WatchedStore store = new WatchedStore(true);
        try (Engine engine = engine(store)) {
            assertThat(readOnce(store, engine)).containsExactly(false);
        }
    }

    @Test
    void aPointReadOnAStoreThatMayBlockRunsOnAVirtualThread() throws Exception {
        WatchedStore store = new WatchedStore(false);
        try (Engine engine = engine(store)) {
            assertThat(readOnce(store, engine)).containsExactly(true);
        }
    }

    @Test
    void anInjectedDelayKeepsPointReadsOffTheEventLoop() throws Exception {
        WatchedStore store = new WatchedStore(true);
        try (Engine engine = engine(store)) {
            engine.faults().add(new FaultRule(FaultRule.Kind.DELAY, "d/c", null, 1, -1, Duration.ofMillis(50)));
            long t0 = System.nanoTime();
            assertThat(readOnce(store, engine)).containsExactly(true);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(50));
        }
    }

    @Test
    void aLongPipelineOfReadsAnsweredOnTheLoopComesBackWhole() throws Exception {
        WatchedStore store = new WatchedStore(true);
        try (Engine engine = engine(store);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false));
                Socket s = new Socket("localhost", server.port())) {
            int n = 2000;
            String read = request("GET", "/dbs/d/colls/c/docs/x", "docs", "dbs/d/colls/c/docs/x", READ_X);
            String text = pipelined(s, read.repeat(n), n);
            assertThat(ConnectionTest.complete(text)).isEqualTo(n);
            assertThat(store.virtualReaders).containsExactly(false);
        }
    }

    /**
     * Requests answered on the loop and on virtual threads, pipelined on one connection, come back whole and in order.
     * (Netty's codec closes a connection with more than 128 requests waiting for their answers: a bound, not a bug.)
     */
    @Test
    void aPipelineMixingLoopAndVirtualThreadRequestsComesBackWholeInOrder() throws Exception {
        WatchedStore store = new WatchedStore(true);
        try (Engine engine = engine(store);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false));
                Socket s = new Socket("localhost", server.port())) {
            int n = 120;
            String read = request("GET", "/dbs/d/colls/c/docs/x", "docs", "dbs/d/colls/c/docs/x", READ_X);
            String account = request("GET", "/", "", "", "");
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < n; i++) {
                all.append(i % 10 == 9 ? account : read);
            }
            String text = pipelined(s, all.toString(), n);
            assertThat(ConnectionTest.complete(text)).isEqualTo(n);
            String[] statuses = java.util.regex.Pattern.compile("HTTP/1\\.1 (\\d{3})").matcher(text).results()
                    .map(r -> r.group(1)).toArray(String[]::new);
            for (int i = 0; i < n; i++) {
                assertThat(statuses[i]).as("response %d", i).isEqualTo(i % 10 == 9 ? "200" : "404");
            }
        }
    }

    /**
     * Sends the requests in one write (the server decodes many per read and queues them behind the one being
     * answered) while reading, and returns what came back once {@code n} responses are complete or the server closed.
     */
    private static String pipelined(Socket s, String requests, int n) throws Exception {
        byte[] pipeline = requests.getBytes(StandardCharsets.US_ASCII);
        OutputStream out = s.getOutputStream();
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                out.write(pipeline);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String text = readAll(s.getInputStream(), n);
        writer.join();
        return text;
    }
}
