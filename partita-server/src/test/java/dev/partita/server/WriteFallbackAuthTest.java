package dev.partita.server;

import static dev.partita.server.ConnectionTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.json.Json;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.StoreKeys;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A create the event loop tries and gives up on runs on a virtual thread without being authenticated again: a
 * resource token's permission is looked up in the store once per authentication, so the lookups count them.
 */
class WriteFallbackAuthTest {

    /** A memory store that counts lookups of permissions by rid (one per resource-token authentication). */
    static final class CountingStore extends ForwardingStore {
        final AtomicInteger permissionLookups = new AtomicInteger();
        private final byte[] prefix = StoreKeys.meta("permrid/");

        CountingStore() {
            super(new MemoryStore());
        }

        @Override
        public byte[] get(byte[] key) {
            if (key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                permissionLookups.incrementAndGet();
            }
            return inner.get(key);
        }

        @Override
        public boolean readsNeverBlock() {
            return true;
        }
    }

    private static int permissionLookupsOfOneCreate(boolean faultElsewhere) throws Exception {
        CountingStore store = new CountingStore();
        try (Engine engine = ConnectionTest.engine(store);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false));
                Socket s = new Socket("localhost", server.port())) {
            engine.createDatabase(Json.object().put("id", "d"), Throughput.NONE);
            engine.createContainer("d", Json.object().put("id", "c").set("partitionKey", Json.object()
                    .put("kind", "Hash").set("paths", Json.NODES.arrayNode().add("/pk"))), Throughput.NONE, 0);
            String token = EventLoopReadsTest.containerToken(engine);
            if (faultElsewhere) {
                // a rule in force (for another container) keeps every write off the loop: the loop gives up on it
                engine.faults().add(FaultRule.parse("throttle container=other/c"));
            }
            String body = "{\"id\":\"x\",\"pk\":\"a\"}";
            String create = "POST /dbs/d/colls/c/docs HTTP/1.1\r\nHost: localhost\r\nauthorization: "
                    + URLEncoder.encode(token, StandardCharsets.UTF_8) + "\r\nx-ms-documentdb-partitionkey: [\"a\"]\r\n"
                    + "content-type: application/json\r\ncontent-length: " + body.length() + "\r\n\r\n" + body;
            int before = store.permissionLookups.get();
            s.getOutputStream().write(create.getBytes(StandardCharsets.US_ASCII));
            assertThat(readAll(s.getInputStream(), 1)).startsWith("HTTP/1.1 201");
            return store.permissionLookups.get() - before;
        }
    }

    @Test
    void aCreateAnsweredOnTheLoopIsAuthenticatedOnce() throws Exception {
        assertThat(permissionLookupsOfOneCreate(false)).isEqualTo(1);
    }

    @Test
    void aCreateTheLoopGivesUpOnIsAuthenticatedOnce() throws Exception {
        assertThat(permissionLookupsOfOneCreate(true)).isEqualTo(1);
    }
}
