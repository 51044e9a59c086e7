package dev.partita.core.item;

import java.nio.charset.StandardCharsets;

/**
 * Appends the system properties to an item body as the client sent it, so that a write stores the client's bytes
 * rather than a re-encoding of them ("bytes in, bytes out").
 */
final class SystemProperties {
    private SystemProperties() {
    }

    /**
     * The body with {@code _rid, _self, _etag, _attachments, _ts} added before its closing brace, or null when the
     * body does not end with one (the caller then re-encodes the parsed tree).
     */
    static byte[] append(byte[] body, String rid, String self, String etag, long ts) {
        int end = body.length - 1;
        while (end >= 0 && isSpace(body[end])) {
            end--;
        }
        if (end < 0 || body[end] != '}') {
            return null;
        }
        int last = end - 1;
        while (last >= 0 && isSpace(body[last])) {
            last--;
        }
        boolean empty = last >= 0 && body[last] == '{';
        // ids and rids are base64 and hex: nothing to escape; the etag's quotes are.
        String tail = (empty ? "" : ",") + "\"_rid\":\"" + rid + "\",\"_self\":\"" + self + "\",\"_etag\":\""
                + etag.replace("\"", "\\\"") + "\",\"_attachments\":\"attachments/\",\"_ts\":" + ts + "}";
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[end + t.length];
        System.arraycopy(body, 0, out, 0, end);
        System.arraycopy(t, 0, out, end, t.length);
        return out;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }
}
