package dev.partita.server;

import static dev.partita.server.FuzzValues.pick;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Framing cases over a fresh raw socket each: bad request lines, bad chunked encodings, Content-Length mismatches,
 * header floods and slow or abandoned partial requests. The server may answer or close; it must not answer 5xx
 * (except 501 for a transfer coding it does not implement, which RFC 9112 §6.1 asks for) and must not hang.
 */
final class FuzzFraming {
    /** What one case sent and what came back: a status, -1 when the server closed without
     * answering, -2 when it was still waiting for the rest of an incomplete request. */
    record Outcome(String description, int status, String response) {
    }

    private static final int WAIT_MILLIS = 300;

    private FuzzFraming() {
    }

    static Outcome run(Random r, int port, int hangMillis) throws IOException {
        String path = "/dbs/" + FuzzRequests.DB + "/colls/c/docs";
        FuzzRequest create = new FuzzRequest("framing", "POST", path).header("Content-Type", "application/json")
                .header("x-ms-documentdb-partitionkey", "[\"p1\"]").body("{\"id\":\"f" + r.nextInt(50)
                        + "\",\"pk\":\"p1\"}");
        String signedHead = head(create);
        String body = new String(create.body, StandardCharsets.UTF_8);
        int roll = r.nextInt(10);
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(hangMillis);
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            if (roll == 9) {
                return slow(r, s, signedHead + "Content-Length: " + body.length() + "\r\n\r\n" + body, hangMillis);
            }
            String text = switch (roll) {
                case 0 -> pick(r, List.of("GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n",
                        "GET / HTTP/1.1 extra\r\n\r\n", " / HTTP/1.1\r\n\r\n", "GET  /  HTTP/1.1\r\nHost: x\r\n\r\n",
                        "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET /\u0001 HTTP/1.1\r\n\r\n",
                        "GET / HTTP/1.0\r\n\r\n", "GET " + "/a".repeat(10_000) + " HTTP/1.1\r\n\r\n",
                        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "GET / HTTP/1.1\nHost: x\n\n",
                        "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003"));
                case 1 -> signedHead + "Transfer-Encoding: chunked\r\n\r\n" + pick(r, List.of("zz\r\n" + body
                        + "\r\n0\r\n\r\n", Integer.toHexString(body.length() + 5) + "\r\n" + body + "\r\n0\r\n\r\n",
                        "1\r\n{\r\n", "FFFFFFFFFFFFFFFF\r\nx\r\n", "-1\r\n\r\n", Integer.toHexString(body.length())
                        + ";ext=1\r\n" + body + "\r\n0\r\ntrailer: x\r\n\r\n", "0\r\n\r\n",
                        Integer.toHexString(body.length()) + "\r\n" + body + "0\r\n\r\n"));
                case 2 -> signedHead + "Transfer-Encoding: " + pick(r, List.of("gzip", "chunked, chunked",
                        "gzip, chunked", "identity", "chunked, gzip", "x")) + "\r\n\r\n"
                        + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
                case 3 -> signedHead + "Content-Length: " + pick(r, List.of(String.valueOf(body.length() + 1 + r
                        .nextInt(50)), "-1", "x", "99999999999999999999", body.length() + ", " + body.length(),
                        body.length() + ", 3", "")) + "\r\n\r\n" + body;
                case 4 -> signedHead + "Content-Length: " + body.length() + "\r\nContent-Length: "
                        + (body.length() + 2) + "\r\n\r\n" + body;
                case 5 -> signedHead + "Content-Length: " + body.length() + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
                case 6 -> signedHead + flood(r) + "Content-Length: " + body.length() + "\r\n\r\n" + body;
                case 7 -> signedHead + "Content-Length: " + Math.max(0, body.length() - 1 - r.nextInt(5))
                        + "\r\n\r\n" + body;
                default -> signedHead + pick(r, List.of("Bad Header: x\r\n", ": nameless\r\n", "x-a:\u0000\r\n",
                        " folded: continuation\r\n", "x-no-colon\r\n", "Content-Length : 3\r\n"))
                        + "Content-Length: " + body.length() + "\r\n\r\n" + body;
            };
            String description = "[framing] " + FuzzRequest.cut(text.replace("\r\n", "\\r\\n\n  "), 1500);
            try {
                out.write(text.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                return new Outcome(description, -1, "write failed: " + e);
            }
            // a body shorter than announced, or a chunk never finished, leaves the server rightly waiting
            boolean mayWait = roll == 0 || roll == 1 || roll == 3;
            return mayWait ? waitBriefly(s, description, hangMillis) : first(s.getInputStream(), description);
        }
    }

    /** The first response on the connection; a close or reset before it counts as "no answer" (-1). */
    private static Outcome first(InputStream in, String description) throws SocketTimeoutException {
        try {
            FuzzWire.Response resp = FuzzWire.read(in, false);
            return new Outcome(description, resp.status(), resp.head() + resp.body());
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            return new Outcome(description, -1, e.toString());
        }
    }

    /** Sends the request in pieces with pauses, or stops part-way and waits briefly before giving up. */
    private static Outcome slow(Random r, Socket s, String text, int hangMillis) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        boolean abandon = r.nextBoolean();
        int stop = abandon ? r.nextInt(bytes.length) : bytes.length;
        OutputStream out = s.getOutputStream();
        int at = 0;
        for (int piece = 0; at < stop; piece++) {
            int n = Math.min(stop - at, 1 + r.nextInt(Math.max(1, stop / 3)));
            out.write(bytes, at, n);
            out.flush();
            at += n;
            sleep(5 + r.nextInt(20));
        }
        String description = "[framing, slow" + (abandon ? ", abandoned at byte " + stop : "") + "] "
                + FuzzRequest.cut(text.replace("\r\n", "\\r\\n\n  "), 600);
        return abandon ? waitBriefly(s, description, hangMillis) : first(s.getInputStream(), description);
    }

    /** With a short read timeout: an answer, a close, or the server still waiting for the rest (-2). */
    private static Outcome waitBriefly(Socket s, String description, int hangMillis) throws IOException {
        s.setSoTimeout(WAIT_MILLIS);
        try {
            FuzzWire.Response resp = FuzzWire.read(s.getInputStream(), false);
            return new Outcome(description, resp.status(), resp.head() + resp.body());
        } catch (SocketTimeoutException e) {
            return new Outcome(description, -2, "still waiting for the rest of the request");
        } catch (IOException | RuntimeException e) {
            return new Outcome(description, -1, e.toString());
        } finally {
            s.setSoTimeout(hangMillis);
        }
    }

    private static String head(FuzzRequest q) {
        String all = new String(q.bytes(), StandardCharsets.UTF_8);
        String head = all.substring(0, all.indexOf("\r\n\r\n") + 2);
        return head.substring(0, head.indexOf("Content-Length:"));
    }

    private static String flood(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextBoolean() ? 100 + r.nextInt(2000) : 1;
        int width = n == 1 ? 10_000 + r.nextInt(100_000) : 1 + r.nextInt(64);
        for (int i = 0; i < n; i++) {
            sb.append("x-flood-").append(i).append(": ").append("f".repeat(width)).append("\r\n");
        }
        return sb.toString();
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
