package dev.partita.server.http;

import dev.partita.core.error.ServiceException;
import dev.partita.server.auth.Principal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * One decoded request as the routes see it: method, path segments (percent-decoded one by one, {@code +} kept),
 * headers and body. Lives for the duration of the request (on the event loop, then on a virtual thread if it is handed
 * off); the body buffer is released by the handler afterwards, so routes copy what they keep ({@link #body()} does).
 */
public final class Exchange {
    private final HttpMethod method;
    private final String rawPath;
    private final List<String> segments;
    private final HttpHeaders headers;
    private final ByteBuf content;
    private final String activityId;
    private final boolean secure;
    /** Who the request acts as once authenticated, kept for the hand-off to a virtual thread (null: not yet). */
    private Principal principal;

    /** @param secure whether the request came over TLS (decides the scheme the account read advertises) */
    public Exchange(HttpMethod method, String rawPath, List<String> segments, HttpHeaders headers, ByteBuf content,
            String activityId, boolean secure) {
        this.method = method;
        this.rawPath = rawPath;
        this.segments = segments;
        this.headers = headers;
        this.content = content;
        this.activityId = activityId;
        this.secure = secure;
    }

    public HttpMethod method() {
        return method;
    }

    public String rawPath() {
        return rawPath;
    }

    public List<String> segments() {
        return segments;
    }

    public HttpHeaders headers() {
        return headers;
    }

    public ByteBuf content() {
        return content;
    }

    public String activityId() {
        return activityId;
    }

    public boolean secure() {
        return secure;
    }

    /**
     * Who the request acts as, if it was authenticated already: a request the event loop gave up on after
     * authenticating it (its partition's writer was busy) is not authenticated again on its virtual thread.
     */
    public Principal principal() {
        return principal;
    }

    public void authenticatedAs(Principal who) {
        this.principal = who;
    }

    public String header(CharSequence name) {
        return headers.get(name);
    }

    /** A boolean header: "true" in any case (the SDK sends {@code True} on query-plan requests). */
    public boolean flag(CharSequence name) {
        String v = headers.get(name);
        return v != null && v.trim().equalsIgnoreCase("true");
    }

    /** The body as a new array (the engine's APIs take arrays); empty when there is none. */
    public byte[] body() {
        return ByteBufUtil.getBytes(content);
    }

    public boolean hasBody() {
        return content.isReadable();
    }

    /** True for GET and HEAD, and for query and query-plan POSTs: requests a read-only key may make. */
    public boolean isRead() {
        if (method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD)) {
            return true;
        }
        return method.equals(HttpMethod.POST) && isQuery();
    }

    /** A query, in any of the ways SDKs mark one. */
    public boolean isQuery() {
        if (flag(Hdr.IS_QUERY) || flag(Hdr.IS_QUERY_GO) || flag(Hdr.IS_QUERY_PLAN)) {
            return true;
        }
        String ct = headers.get(Hdr.CONTENT_TYPE);
        return ct != null && ct.toLowerCase(java.util.Locale.ROOT).startsWith("application/query+json");
    }

    /** {@code Prefer: return=minimal}: write responses carry no body. */
    public boolean minimalReturn() {
        String v = headers.get(Hdr.PREFER);
        return v != null && v.toLowerCase(java.util.Locale.ROOT).contains("return=minimal");
    }

    /** An integer header, or {@code fallback} when absent or empty; 400 when present but not a number. */
    public int intHeader(CharSequence name, int fallback) {
        String v = headers.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw ServiceException.badRequest("The header " + name + " must be an integer.");
        }
    }
}
