package dev.partita.server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection for the fuzz test, over a raw socket so that any bytes can be sent. Responses are
 * read by Content-Length (the gateway always sends it); a read that waits longer than the hang bound throws
 * {@link SocketTimeoutException}.
 */
final class FuzzWire implements AutoCloseable {
    record Response(int status, String head, String body) {
        boolean closes() {
            return head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close");
        }
    }

    private final int port;
    private final int timeoutMillis;
    private Socket socket;
    private InputStream in;

    FuzzWire(int port, int timeoutMillis) {
        this.port = port;
        this.timeoutMillis = timeoutMillis;
    }

    /** Sends one request and reads its response, on a fresh connection if the last one was closed. */
    Response exchange(byte[] request, boolean head) throws IOException {
        boolean reused = socket != null;
        try {
            return exchangeOnce(request, head);
        } catch (EOFException | java.net.SocketException e) {
            close();
            if (!reused) {
                throw e;
            }
            // a kept-alive connection may have been closed under us: retry once, on a fresh one
            return exchangeOnce(request, head);
        }
    }

    private Response exchangeOnce(byte[] request, boolean head) throws IOException {
        if (socket == null) {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
        }
        OutputStream out = socket.getOutputStream();
        out.write(request);
        out.flush();
        Response r = read(in, head);
        if (r.closes()) {
            close();
        }
        return r;
    }

    /**
     * Reads one response from {@code in} ({@code toHead}: to a HEAD request, so without a body); EOF before a whole
     * response is an {@link EOFException}.
     */
    static Response read(InputStream in, boolean toHead) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed after " + head.size() + " bytes of response head");
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        String lower = text.toLowerCase(Locale.ROOT);
        int cl = lower.indexOf("\r\ncontent-length:");
        int length = cl < 0 || toHead || status == 204 || status == 304 ? 0 : Integer.parseInt(lower.substring(cl + 17, lower.indexOf("\r\n", cl + 2)).trim());
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new EOFException("connection closed inside a response body");
        }
        return new Response(status, text, new String(body, StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
            socket = null;
        }
    }
}
