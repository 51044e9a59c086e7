package dev.partita.core.request;

/**
 * The optimistic-concurrency headers of a request: {@code If-Match} on writes (412 when the item changed),
 * {@code If-None-Match} on reads (304 when it did not).
 */
public record Conditions(String ifMatch, String ifNoneMatch) {
    public static final Conditions NONE = new Conditions(null, null);

    public static Conditions ifMatch(String etag) {
        return new Conditions(etag, null);
    }

    public static Conditions ifNoneMatch(String etag) {
        return new Conditions(null, etag);
    }
}
