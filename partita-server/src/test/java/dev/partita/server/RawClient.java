package dev.partita.server;

import dev.partita.server.auth.MasterKeySignature;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A plain HTTP client that signs requests the way the SDK does (protocol.md §2.1). */
final class RawClient {
    static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    private final String endpoint;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String key = Keys.EMULATOR_PRIMARY;

    RawClient(String endpoint) {
        this.endpoint = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    }

    /** A request with the usual signature; {@code rawPath} is sent as is (already percent-encoded). */
    Call call(String method, String rawPath) {
        return new Call(method, rawPath);
    }

    final class Call {
        final String method;
        final String rawPath;
        final Map<String, String> headers = new LinkedHashMap<>();
        byte[] body = new byte[0];
        String type = "";
        String link = "";
        boolean sign = true;
        String date = DATE.format(ZonedDateTime.now(ZoneOffset.UTC));

        Call(String method, String rawPath) {
            this.method = method;
            this.rawPath = rawPath;
        }

        Call signed(String resourceType, String resourceLink) {
            this.type = resourceType;
            this.link = resourceLink;
            return this;
        }

        Call unsigned() {
            this.sign = false;
            return this;
        }

        Call header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        Call body(String json) {
            this.body = json.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        Call body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        Call date(String value) {
            this.date = value;
            return this;
        }

        HttpResponse<String> send() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint + rawPath))
                    .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            if (date != null) {
                b.header("x-ms-date", date);
            }
            if (sign) {
                String sig = MasterKeySignature.sign(key, MasterKeySignature.stringToSign(method, type, link, date,
                        null));
                b.header("authorization", URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8));
            }
            if (body.length > 0 && !headers.containsKey("Content-Type")) {
                b.header("Content-Type", "application/json");
            }
            headers.forEach(b::header);
            try {
                return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
