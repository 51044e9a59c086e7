package dev.partita.cli;

import dev.partita.server.auth.MasterKeySignature;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Locale;

/**
 * {@code partita train} (hidden, not in the command tree): what {@code partita serve --http} does on a fresh durable store, then a short
 * session of the requests the SDKs send first — account, database, container, partition key ranges, writes, point
 * reads, a query plan and queries, a batch, a read feed, deletes. Any answer of 400 or more fails it, so it is an
 * end-to-end check of the packaged command line; {@code ./partita} also runs it once per build under
 * {@code -XX:AOTCacheOutput} so that later starts load and link those classes from the JVM's ahead-of-time cache.
 * The client is a bare socket: the JDK's HTTP client would put its own classes into the server's cache.
 */
final class TrainCommand {
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    private static final int ITEMS = 200;

    private TrainCommand() {
    }

    /** Runs the session; returns 0, or throws if any answer was an error. */
    static int run() {
        Path dir = temporaryFolder();
        ServeArguments args = ServeArguments.parse("--http", "--port", "0", "--data", dir.toString());
        try (ServeCommand.Running running = ServeCommand.start(args, args.limits());
                Session s = new Session(running.server().endpoint(), running.keys().primary())) {
            // a health probe's unsigned GET / (and so the error replies' path) is often a server's first request
            s.sendUnsigned("GET", "", 401);
            s.send("GET", "", "", "", null, null);
            s.send("POST", "dbs", "dbs", "", "{\"id\":\"train\"}", null);
            s.send("GET", "dbs/train", "dbs", "dbs/train", null, null);
            s.send("POST", "dbs/train/colls", "colls", "dbs/train",
                    "{\"id\":\"items\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}", null);
            String coll = "dbs/train/colls/items";
            s.send("GET", coll, "colls", coll, null, null);
            s.send("GET", coll + "/pkranges", "pkranges", coll, null, null, "A-IM", "Incremental feed");
            String docs = coll + "/docs";
            for (int i = 0; i < ITEMS; i++) {
                s.send("POST", docs, "docs", coll, item(i), key(i));
            }
            for (int i = 0; i < ITEMS; i++) {
                s.send("POST", docs, "docs", coll, item(i), key(i), "x-ms-documentdb-is-upsert", "True");
                s.send("GET", docs + "/i" + i, "docs", docs + "/i" + i, null, key(i));
            }
            s.send("PUT", docs + "/i1", "docs", docs + "/i1", item(1), key(1));
            s.send("PATCH", docs + "/i1", "docs", docs + "/i1",
                    "{\"operations\":[{\"op\":\"incr\",\"path\":\"/n\",\"value\":1}]}", key(1));
            for (int i = 0; i < 20; i++) {
                String query = "{\"query\":\"SELECT * FROM c WHERE c.n > " + i + " ORDER BY c.n\",\"parameters\":[]}";
                s.send("POST", docs, "docs", coll, query, null, "x-ms-documentdb-isquery", "True",
                        "x-ms-cosmos-is-query-plan-request", "True", "Content-Type", "application/query+json",
                        "x-ms-cosmos-supported-query-features", "Aggregate, CompositeAggregate, Distinct,"
                                + " MultipleOrderBy, OffsetAndLimit, OrderBy, Top, GroupBy, DCount, HybridSearch");
                s.send("POST", docs, "docs", coll, query, null, "x-ms-documentdb-isquery", "True",
                        "x-ms-documentdb-query-enablecrosspartition", "True", "Content-Type",
                        "application/query+json", "x-ms-documentdb-partitionkeyrangeid", "0");
            }
            s.send("POST", docs, "docs", coll, "[{\"operationType\":\"Upsert\",\"resourceBody\":" + item(2) + "}]",
                    key(2), "x-ms-cosmos-is-batch-request", "True", "x-ms-cosmos-batch-atomic", "True");
            s.send("GET", docs, "docs", coll, null, key(3), "x-ms-max-item-count", "10");
            s.send("DELETE", docs + "/i0", "docs", docs + "/i0", null, key(0));
            s.send("DELETE", coll, "colls", coll, null, null);
            s.send("DELETE", "dbs/train", "dbs", "dbs/train", null, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(dir);
        }
        return 0;
    }

    private static String item(int i) {
        return "{\"id\":\"i" + i + "\",\"pk\":\"p" + i % 10 + "\",\"n\":" + i + ",\"tags\":[\"a\",\"b\"]}";
    }

    private static String key(int i) {
        return "[\"p" + i % 10 + "\"]";
    }

    /** Signed HTTP/1.1 requests on one kept-alive connection, with the headers the SDKs send. */
    private static final class Session implements AutoCloseable {
        private final String host;
        private final String key;
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Session(String endpoint, String key) throws IOException {
            URI uri = URI.create(endpoint);
            this.host = uri.getHost() + ":" + uri.getPort();
            this.key = key;
            this.socket = new Socket(uri.getHost(), uri.getPort());
            socket.setTcpNoDelay(true);
            this.out = new java.io.BufferedOutputStream(socket.getOutputStream());
            this.in = new BufferedInputStream(socket.getInputStream());
        }

        void send(String method, String path, String type, String link, String body, String partitionKey,
                String... headers) throws IOException {
            String date = DATE.format(ZonedDateTime.now(ZoneOffset.UTC));
            String signature = MasterKeySignature.sign(key,
                    MasterKeySignature.stringToSign(method, type, link, date, null));
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder r = new StringBuilder(method).append(" /").append(path).append(" HTTP/1.1\r\n")
                    .append("Host: ").append(host).append("\r\n")
                    .append("x-ms-date: ").append(date).append("\r\n")
                    .append("x-ms-version: 2020-07-15\r\n")
                    .append("authorization: ").append(URLEncoder.encode("type=master&ver=1.0&sig=" + signature,
                            StandardCharsets.UTF_8)).append("\r\n")
                    .append("Content-Length: ").append(content.length).append("\r\n");
            if (partitionKey != null) {
                r.append("x-ms-documentdb-partitionkey: ").append(partitionKey).append("\r\n");
            }
            for (int i = 0; i < headers.length; i += 2) {
                r.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            }
            out.write(r.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.flush();
            int status = readResponse();
            if (status >= 400) {
                throw new IllegalStateException(method + " /" + path + " answered " + status);
            }
        }

        /** A request without the authorization header, which must answer {@code expected}. */
        void sendUnsigned(String method, String path, int expected) throws IOException {
            out.write((method + " /" + path + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            int status = readResponse();
            if (status != expected) {
                throw new IllegalStateException(method + " /" + path + " unsigned answered " + status);
            }
        }

        /** Reads one response (its body by Content-Length or chunks) and returns its status. */
        private int readResponse() throws IOException {
            String statusLine = line();
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            long length = 0;
            boolean chunked = false;
            for (String h = line(); !h.isEmpty(); h = line()) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring("content-length:".length()).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            if (!chunked) {
                in.skipNBytes(length);
                return status;
            }
            for (long chunk = Long.parseLong(line().trim(), 16); chunk > 0; chunk = Long.parseLong(line().trim(), 16)) {
                in.skipNBytes(chunk);
                line();
            }
            line();
            return status;
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("The server closed the connection mid-response");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
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
