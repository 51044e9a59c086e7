package dev.partita.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * A response under construction: status, headers and body. The handler adds the headers every response carries
 * (activity id, date, gateway version, content length, a request charge if the route set none) when it writes it.
 */
public final class Reply {
    private final int status;
    private final HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders();
    private ByteBuf body = Unpooled.EMPTY_BUFFER;

    private Reply(int status) {
        this.status = status;
    }

    public static Reply status(int status) {
        return new Reply(status);
    }

    /** A JSON body serialized from a tree. */
    public static Reply json(int status, JsonNode node) {
        return new Reply(status).body(Json.bytes(node));
    }

    public int status() {
        return status;
    }

    public HttpHeaders headers() {
        return headers;
    }

    public ByteBuf content() {
        return body;
    }

    /** The body as is (no copy); sets {@code Content-Type: application/json}. */
    public Reply body(byte[] bytes) {
        return body(bytes, 0, bytes.length);
    }

    /** A slice of an array as the body, without copying it (a stored item's JSON inside its stored bytes). */
    public Reply body(byte[] bytes, int offset, int length) {
        this.body = Unpooled.wrappedBuffer(bytes, offset, length);
        headers.set(Hdr.CONTENT_TYPE, "application/json");
        return this;
    }

    public Reply noBody() {
        this.body = Unpooled.EMPTY_BUFFER;
        headers.remove(Hdr.CONTENT_TYPE);
        return this;
    }

    public Reply header(CharSequence name, Object value) {
        if (value != null) {
            headers.set(name, value);
        }
        return this;
    }

    public Reply charge(double ru) {
        headers.set(Hdr.REQUEST_CHARGE, Double.toString(ru));
        return this;
    }
}
