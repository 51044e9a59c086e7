package dev.partita.cli;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.RocksStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import dev.partita.server.auth.MasterKeySignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import picocli.CommandLine.Command;

/**
 * {@code partita train} (hidden): a short, typical session — start on a fresh durable store over HTTPS, create a
 * database, a container and items, read, query, delete, stop. Any answer of 400 or more fails it, so it is an
 * end-to-end check of the packaged command line; it is also the training run for a JVM ahead-of-time cache
 * ({@code java -XX:AOTCacheOutput=partita.aot -jar partita.jar train}), which measured no start-up gain yet
 * (BENCHMARKS.md).
 */
@Command(name = "train", hidden = true, description = "Run a short typical session (for the JVM's AOT cache).")
public final class TrainCommand implements Runnable {
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    private static final int ITEMS = 200;

    @Override
    public void run() {
        Path dir = temporaryFolder();
        Engine engine = Engine.open(RocksStore.open(dir.resolve("store")), Clock.systemUTC(), Limits.DEFAULTS);
        engine.startBackgroundTasks();
        Keys keys = Keys.emulator();
        PartitaServer server = PartitaServer.start(engine,
                new ServerOptions("localhost", 0, true, dir.resolve("tls"), keys, false));
        try {
            Session s = new Session(server.endpoint(), keys.primary());
            s.send("GET", "", "", "", null, null);
            s.send("POST", "dbs", "dbs", "", "{\"id\":\"train\"}", null);
            s.send("POST", "dbs/train/colls", "colls", "dbs/train",
                    "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}", null);
            s.send("GET", "dbs/train/colls/items/pkranges", "pkranges", "dbs/train/colls/items", null, null);
            String docs = "dbs/train/colls/items/docs";
            for (int i = 0; i < ITEMS; i++) {
                s.send("POST", docs, "docs", "dbs/train/colls/items", "{\"id\":\"i" + i + "\",\"pk\":\"p" + i % 10
                        + "\",\"n\":" + i + ",\"tags\":[\"a\",\"b\"]}", "[\"p" + i % 10 + "\"]");
            }
            for (int i = 0; i < ITEMS; i++) {
                s.send("GET", docs + "/i" + i, "docs", docs + "/i" + i, null, "[\"p" + i % 10 + "\"]");
            }
            for (int i = 0; i < 20; i++) {
                s.query(docs, "SELECT * FROM c WHERE c.n > " + i + " ORDER BY c.n");
            }
            s.send("DELETE", docs + "/i0", "docs", docs + "/i0", null, "[\"p0\"]");
        } finally {
            server.close();
            engine.close();
            delete(dir);
        }
    }

    /** Signed requests to the server, the way the SDK sends them. */
    private static final class Session {
        private final String endpoint;
        private final String key;
        private final HttpClient http;

        Session(String endpoint, String key) {
            this.endpoint = endpoint.endsWith("/") ? endpoint : endpoint + "/";
            this.key = key;
            this.http = HttpClient.newBuilder().sslContext(trustingItsOwnCertificate()).build();
        }

        void send(String method, String path, String type, String link, String body, String partitionKey) {
            HttpRequest.Builder b = request(method, path, type, link, body);
            if (partitionKey != null) {
                b.header("x-ms-documentdb-partitionkey", partitionKey);
            }
            exchange(b);
        }

        void query(String path, String text) {
            HttpRequest.Builder b = request("POST", path, "docs", path.substring(0, path.length() - "/docs".length()),
                    "{\"query\":\"" + text + "\",\"parameters\":[]}");
            b.header("x-ms-documentdb-isquery", "True").header("x-ms-documentdb-query-enablecrosspartition", "True")
                    .header("x-ms-documentdb-partitionkeyrangeid", "0")
                    .header("Content-Type", "application/query+json");
            exchange(b);
        }

        private HttpRequest.Builder request(String method, String path, String type, String link, String body) {
            String date = DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
            String signature = MasterKeySignature.sign(key,
                    MasterKeySignature.stringToSign(method, type, link, date, null));
            return HttpRequest.newBuilder(URI.create(endpoint + path))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body))
                    .header("x-ms-date", date)
                    .header("x-ms-version", "2020-07-15")
                    .header("authorization",
                            URLEncoder.encode("type=master&ver=1.0&sig=" + signature, StandardCharsets.UTF_8));
        }

        private void exchange(HttpRequest.Builder b) {
            try {
                HttpRequest request = b.build();
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() >= 400) {
                    throw new IllegalStateException(request.method() + " " + request.uri().getPath() + " answered "
                            + response.statusCode() + ": " + response.body());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The training server's certificate was made a moment ago in a temporary folder: trust what it presents. */
    private static SSLContext trustingItsOwnCertificate() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path temporaryFolder() {
        try {
            return Files.createTempDirectory("partita-train");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
