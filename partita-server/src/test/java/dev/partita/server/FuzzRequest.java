package dev.partita.server;

import dev.partita.server.auth.MasterKeySignature;
import dev.partita.server.route.SigningLinks;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One generated HTTP request: what it is made of, its bytes on the wire, and a description for failure reports. */
final class FuzzRequest {
    /** How a request is signed: as the SDK does, not at all, with garbage, or with another key. */
    enum Auth { SIGNED, NONE, GARBAGE, WRONG_KEY }

    final String kind;
    String method;
    String path;
    final List<String[]> headers = new ArrayList<>();
    byte[] body = new byte[0];
    Auth auth = Auth.SIGNED;
    String date = RawClient.DATE.format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC));

    FuzzRequest(String kind, String method, String path) {
        this.kind = kind;
        this.method = method;
        this.path = path;
    }

    FuzzRequest header(String name, String value) {
        headers.add(new String[] {name, value});
        return this;
    }

    FuzzRequest body(String text) {
        body = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    byte[] bytes() {
        StringBuilder sb = new StringBuilder(256).append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\n");
        if (date != null) {
            sb.append("x-ms-date: ").append(date).append("\r\n");
        }
        String authorization = switch (auth) {
            case SIGNED -> signature(Keys.EMULATOR_PRIMARY);
            case WRONG_KEY -> signature("c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0");
            case GARBAGE -> "type=master&ver=1.0&sig=%%%";
            case NONE -> null;
        };
        if (authorization != null) {
            sb.append("authorization: ").append(authorization).append("\r\n");
        }
        for (String[] h : headers) {
            sb.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        sb.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(sb.length() + body.length);
        out.writeBytes(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private String signature(String key) {
        String[] typeAndLink = SigningLinks.of(path);
        String sig = MasterKeySignature.sign(key, MasterKeySignature.stringToSign(method, typeAndLink[0],
                typeAndLink[1], date == null ? "" : date, null));
        return URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8);
    }

    /** The request as a reader can replay it, long parts cut. */
    String describe() {
        StringBuilder sb = new StringBuilder().append('[').append(kind).append(", auth ").append(auth).append("] ")
                .append(method).append(' ').append(cut(path, 400)).append('\n');
        for (String[] h : headers) {
            sb.append("  ").append(h[0]).append(": ").append(cut(h[1], 300)).append('\n');
        }
        sb.append("  body (").append(body.length).append(" bytes): ")
                .append(cut(new String(body, StandardCharsets.UTF_8), 1500));
        return sb.toString();
    }

    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...(" + s.length() + " chars)";
    }
}
