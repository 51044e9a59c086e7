package dev.partita.server;

import static dev.partita.server.ConnectionTest.readAll;
import static dev.partita.server.ConnectionTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Permission;
import dev.partita.core.account.Throughput;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.json.Json;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.Lookup;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.server.auth.ResourceTokens;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which thread answers a point read: the event loop when the store answers it from memory (a store whose reads never
 * block; RocksDB's memtables and block cache) and no injected fault can sleep, a virtual thread otherwise, with the
 * same answer; and a long pipeline of reads answered on the loop comes back whole (each next request starts as a new
 * task of the loop, not as a nested call).
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

    /** A RocksDB store that records each item read: which kind, what it found, and on which thread. */
    static final class WatchedRocks extends ForwardingStore {
        final List<String> itemReads = new CopyOnWriteArrayList<>();

        WatchedRocks(Store rocks) {
            super(rocks);
        }

        @Override
        public byte[] get(byte[] key) {
            note(key, "read");
            return inner.get(key);
        }

        @Override
        public Lookup getWithoutWaiting(byte[] key) {
            Lookup found = inner.getWithoutWaiting(key);
            note(key, found.wouldWait() ? "would wait" : "from memory");
            return found;
        }

        /** Reads of the server's threads only (the test's own writes and background upkeep read items too). */
        private void note(byte[] key, String what) {
            Thread t = Thread.currentThread();
            if (key.length > 0 && key[0] == 0x02) { // an item key
                if (t instanceof FastThreadLocalThread) {
                    itemReads.add(what + " on the loop");
                } else if (t.isVirtual() && t.getName().startsWith("partita-request-")) {
                    itemReads.add(what + " on a virtual thread");
                }
            }
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

    /**
     * On RocksDB: an item in the memtable is read on the loop; one in a file outside the block cache (a cache too small
     * to keep a block, after a reopen) is tried on the loop, which gives up, and read on a virtual thread.
     */
    @Test
    void onRocksDbAnItemInMemoryIsReadOnTheLoopAndOneOnDiskOnAVirtualThread(@TempDir Path dir) throws Exception {
        try (Engine first = engine(RocksStore.open(dir))) {
            first.container("d", "c").create(item("onDisk"), RequestOptions.NONE);
        }
        WatchedRocks store = new WatchedRocks(RocksStore.open(dir, new RocksStore.Settings(false, 1)));
        try (Engine engine = ConnectionTest.engine(store);
                PartitaServer server = start(engine);
                Socket s = new Socket("localhost", server.port())) {
            engine.container("d", "c").create(item("inMemory"), RequestOptions.NONE);
            String text = pipelined(s, read("inMemory") + read("onDisk"), 2);
            assertThat(statuses(text)).containsExactly("200", "200");
            assertThat(store.itemReads).containsExactly("from memory on the loop", "would wait on the loop",
                    "read on a virtual thread");
        }
    }

    /**
     * On RocksDB the same read answered on the loop and on a virtual thread (kept off the loop by a fault rule in force
     * for another container) gives the same reply: status, body, etag, charge, session token and every other header.
     */
    @Test
    void onRocksDbTheLoopAndAVirtualThreadGiveTheSameReply(@TempDir Path dir) throws Exception {
        WatchedRocks store = new WatchedRocks(RocksStore.open(dir));
        try (Engine engine = engine(store);
                PartitaServer server = start(engine);
                Socket s = new Socket("localhost", server.port())) {
            engine.container("d", "c").create(item("x"), RequestOptions.NONE);
            String onLoop = pipelined(s, read("x"), 1);
            engine.faults().add(FaultRule.parse("throttle container=other/c"));
            String onVirtualThread = pipelined(s, read("x"), 1);
            assertThat(store.itemReads).containsExactly("from memory on the loop", "read on a virtual thread");
            assertThat(statuses(onLoop)).containsExactly("200");
            assertThat(withoutDate(onLoop)).isEqualTo(withoutDate(onVirtualThread)).contains("x-ms-session-token");
        }
    }

    /** A resource token's permission is looked up in the store: on RocksDB such a read keeps its virtual thread. */
    @Test
    void onRocksDbAReadWithAResourceTokenKeepsItsVirtualThread(@TempDir Path dir) throws Exception {
        WatchedRocks store = new WatchedRocks(RocksStore.open(dir));
        try (Engine engine = engine(store);
                PartitaServer server = start(engine);
                Socket s = new Socket("localhost", server.port())) {
            engine.container("d", "c").create(item("x"), RequestOptions.NONE);
            String token = containerToken(engine);
            String read = "GET /dbs/d/colls/c/docs/x HTTP/1.1\r\nHost: localhost\r\nauthorization: "
                    + URLEncoder.encode(token, StandardCharsets.UTF_8) + "\r\n" + READ_X + "\r\n";
            assertThat(statuses(pipelined(s, read + read("x"), 2))).containsExactly("200", "200");
            assertThat(store.itemReads).containsExactly("read on a virtual thread", "from memory on the loop");
        }
    }

    /** A resource token for user u with an "All" permission on container d/c (ten minutes long). */
    static String containerToken(Engine engine) {
        DatabaseInfo db = engine.readDatabase("d");
        engine.users().createUser(db, Json.object().put("id", "u"));
        Permission p = engine.users().createPermission(db, "u", Json.object().put("id", "p")
                .put("permissionMode", "All").put("resource", "dbs/d/colls/c"));
        return new ResourceTokens(Keys.EMULATOR_PRIMARY).mint(p.rid(), Instant.now().getEpochSecond() + 600);
    }

    private static byte[] item(String id) {
        return ("{\"id\":\"" + id + "\",\"pk\":\"a\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** A read of item {@code id} in partition "a", with a fixed activity id (the reply echoes it). */
    private static String read(String id) {
        return request("GET", "/dbs/d/colls/c/docs/" + id, "docs", "dbs/d/colls/c/docs/" + id,
                READ_X + "x-ms-activity-id: 0123456789abcdef\r\n");
    }

    private static String withoutDate(String reply) {
        return reply.replaceAll("(?im)^date: [^\r\n]*\r\n", "");
    }

    private static List<String> statuses(String text) {
        return Pattern.compile("HTTP/1\\.1 (\\d{3})").matcher(text).results().map(r -> r.group(1)).toList();
    }

    private static PartitaServer start(Engine engine) {
        return PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
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
            List<String> statuses = statuses(text);
            for (int i = 0; i < n; i++) {
                assertThat(statuses.get(i)).as("response %d", i).isEqualTo(i % 10 == 9 ? "200" : "404");
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
