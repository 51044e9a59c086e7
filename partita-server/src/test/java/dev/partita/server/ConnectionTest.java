package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import dev.partita.server.auth.MasterKeySignature;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Keep-alive, pipelining, idle timeout and graceful close, over raw sockets. */
class ConnectionTest {

    static String request(String method, String path, String type, String link, String extra) {
        String date = RawClient.DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
        String sig = MasterKeySignature.sign(Keys.EMULATOR_PRIMARY,
                MasterKeySignature.stringToSign(method, type, link, date, null));
        return method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nx-ms-date: " + date + "\r\nauthorization: "
                + URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8) + "\r\n" + extra
                + "\r\n";
    }

    static String readAll(InputStream in, int responses) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (true) {
            String text = out.toString(StandardCharsets.ISO_8859_1);
            if (complete(text) >= responses) {
                return text;
            }
            int n = in.read(buf);
            if (n < 0) {
                return text;
            }
            out.write(buf, 0, n);
        }
    }

    /** How many complete responses (by Content-Length) the text holds. */
    static int complete(String text) {
        int count = 0;
        int at = 0;
        while (true) {
            int end = text.indexOf("\r\n\r\n", at);
            if (end < 0) {
                return count;
            }
            String head = text.substring(at, end).toLowerCase();
            int cl = head.indexOf("content-length: ");
            int len = cl < 0 ? 0 : Integer.parseInt(head.substring(cl + 16, head.indexOf("\r\n", cl) < 0
                    ? head.length() : head.indexOf("\r\n", cl)).trim());
            if (text.length() < end + 4 + len) {
                return count;
            }
            count++;
            at = end + 4 + len;
        }
    }

    static Engine engine(Store store) {
        return Engine.open(store, Clock.systemUTC(), Limits.DEFAULTS, (c, i) -> {
            throw ServiceException.badRequest("no");
        });
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        try (Engine engine = engine(new MemoryStore());
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false));
                Socket s = new Socket("localhost", server.port())) {
            engine.createDatabase(dev.partita.core.json.Json.object().put("id", "one"),
                    dev.partita.core.account.Throughput.NONE);
            OutputStream out = s.getOutputStream();
            out.write((request("GET", "/dbs/one", "dbs", "dbs/one", "")
                    + request("GET", "/dbs/two", "dbs", "dbs/two", "")
                    + request("GET", "/", "", "", "")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String text = readAll(s.getInputStream(), 3);
            int first = text.indexOf("HTTP/1.1 200");
            int second = text.indexOf("HTTP/1.1 404");
            int third = text.indexOf("HTTP/1.1 200", second);
            assertThat(first).isZero();
            assertThat(second).isGreaterThan(first);
            assertThat(third).isGreaterThan(second);
        }
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        try (Engine engine = engine(new MemoryStore());
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false), Duration.ofMillis(300));
                Socket s = new Socket("localhost", server.port())) {
            s.getOutputStream().write(request("GET", "/", "", "", "").getBytes(StandardCharsets.US_ASCII));
            assertThat(readAll(s.getInputStream(), 1)).startsWith("HTTP/1.1 200");
            s.setSoTimeout(5000);
            long t0 = System.nanoTime();
            assertThat(s.getInputStream().read()).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void closeLetsRequestsInFlightFinish() throws Exception {
        CountDownLatch inStore = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Store slow = new ForwardingStore(new MemoryStore()) {
            volatile boolean armed;

            @Override
            public byte[] get(byte[] key) {
                if (armed && key.length > 0 && key[0] == 0x02) {
                    inStore.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return inner.get(key);
            }

            @Override
            public Cursor scan(byte[] from, byte[] to) {
                armed = true;
                return inner.scan(from, to);
            }

            @Override
            public Cursor scanDescending(byte[] from, byte[] to) {
                armed = true;
                return inner.scanDescending(from, to);
            }
        };
        try (Engine engine = engine(slow)) {
            engine.createDatabase(dev.partita.core.json.Json.object().put("id", "d"),
                    dev.partita.core.account.Throughput.NONE);
            engine.createContainer("d", dev.partita.core.json.Json.object().put("id", "c")
                    .set("partitionKey", dev.partita.core.json.Json.object().put("kind", "Hash")
                            .set("paths", dev.partita.core.json.Json.NODES.arrayNode().add("/pk"))),
                    dev.partita.core.account.Throughput.NONE, 0);
            engine.store().scan(new byte[] {0}, new byte[] {0}).close();
            PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                    Keys.emulator(), false));
            try (Socket s = new Socket("localhost", server.port())) {
                s.getOutputStream().write(request("GET", "/dbs/d/colls/c/docs/x", "docs", "dbs/d/colls/c/docs/x",
                        "x-ms-documentdb-partitionkey: [\"a\"]\r\n").getBytes(StandardCharsets.US_ASCII));
                assertThat(inStore.await(10, TimeUnit.SECONDS)).isTrue();
                CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
                Thread.sleep(200);
                assertThat(closing).isNotDone();
                release.countDown();
                // the request in flight still gets its answer (404: no such item)
                assertThat(readAll(s.getInputStream(), 1)).startsWith("HTTP/1.1 404");
                closing.get(10, TimeUnit.SECONDS);
            }
            // and nobody is listening any more
            assertThat(canConnect(server.port())).isFalse();
        }
    }

    private static boolean canConnect(int port) {
        try {
            new Socket("localhost", port).close();
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
