package dev.partita.core.query;

import dev.partita.core.error.ServiceException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The server's query continuation token, opaque to the SDK and kept short (it travels in headers).
 *
 * <ul>
 *   <li>{@code S.<key>.<rowsOfKey>.<emitted>.<skipped>} for streamed queries: resume at the item with this store key
 *       (base64url), skipping the rows of it already returned; {@code emitted}/{@code skipped} carry TOP/LIMIT and
 *       OFFSET across pages.</li>
 *   <li>{@code I.<key>.<rowsOfKey>.<emitted>.<skipped>} for streamed queries answered through an index lookup: the
 *       same, with the key of the index entry the page stopped at.</li>
 *   <li>{@code O.<part>.<term>.<index>.<rowsOfKey>.<emitted>.<skipped>} for ORDER BY read through the index: the
 *       part of the order, the group's term (base64url, {@code -} outside the indexed part) and the item's place in
 *       the sorted group (see {@link OrderedSource}).</li>
 *   <li>{@code M.<offset>} for materialized queries (ORDER BY, GROUP BY, aggregates, DISTINCT): the rows already
 *       returned.</li>
 *   <li>{@code M.<offset>.<from>.<to>} for a materialized query answered part by part (see
 *       {@link MaterializedPages}): the rows already returned of the part of the scope's items from item key
 *       {@code from} (inclusive) to {@code to} (exclusive; {@code -} for the end of the scope, not read yet).</li>
 *   <li>{@code A.<from>.<state>} for an aggregate query without GROUP BY read on from item key {@code from}: the
 *       running state of its SUM, AVG, MIN, MAX and COUNT over the items before it (see {@link CarriedAggregates}).
 *       </li>
 * </ul>
 */
record Continuation(boolean indexed, byte[] key, long rowsOfKey, long emitted, long skipped, long offset,
        OrderedSource.Position ordered, byte[] partFrom, byte[] partTo, String state) {

    static final Continuation START = new Continuation(false, null, 0, 0, 0, 0, null, null, null, null);

    static Continuation streamed(boolean indexed, byte[] key, long rowsOfKey, long emitted, long skipped) {
        return new Continuation(indexed, key, rowsOfKey, emitted, skipped, 0, null, null, null, null);
    }

    static Continuation ordered(OrderedSource.Position position, long rowsOfKey, long emitted, long skipped) {
        return new Continuation(true, null, rowsOfKey, emitted, skipped, 0, position, null, null, null);
    }

    static Continuation materialized(long offset) {
        return new Continuation(false, null, 0, 0, 0, offset, null, null, null, null);
    }

    /** The rows already returned of the part {@code [from, to)} of the scope's items ({@code to} null: its end). */
    static Continuation ofPart(long offset, byte[] from, byte[] to) {
        return new Continuation(false, null, 0, 0, 0, offset, null, from, to, null);
    }

    /**
     * An aggregate query's read carried on from item key {@code from} (inclusive) with the running state of the items
     * before it (see {@link CarriedAggregates}).
     */
    static Continuation carried(byte[] from, String state) {
        return new Continuation(false, from, 0, 0, 0, 0, null, null, null, state);
    }

    /** True for a token that resumes a page (streamed or ordered) rather than starting one. */
    boolean resumes() {
        return key != null || ordered != null;
    }

    String encode() {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        if (ordered != null) {
            return "O." + ordered.part().code + "." + (ordered.term() == null ? "-" : b64.encodeToString(ordered.term()))
                    + "." + ordered.index() + "." + rowsOfKey + "." + emitted + "." + skipped;
        }
        if (state != null) {
            return "A." + b64.encodeToString(key) + "." + state;
        }
        if (partFrom != null) {
            return "M." + offset + "." + b64.encodeToString(partFrom) + "." + (partTo == null ? "-"
                    : b64.encodeToString(partTo));
        }
        if (key == null) {
            return "M." + offset;
        }
        return (indexed ? "I." : "S.") + b64.encodeToString(key) + "." + rowsOfKey + "." + emitted + "." + skipped;
    }

    static Continuation parse(String token, boolean streamed) {
        if (token == null || token.isBlank()) {
            return START;
        }
        try {
            String[] f = token.split("\\.");
            if (streamed && f.length == 5 && (f[0].equals("S") || f[0].equals("I"))) {
                byte[] key = Base64.getUrlDecoder().decode(f[1].getBytes(StandardCharsets.US_ASCII));
                return streamed(f[0].equals("I"), key,
                        Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]));
            }
            if (streamed && f.length == 7 && f[0].equals("O") && f[1].length() == 1) {
                byte[] term = f[2].equals("-") ? null
                        : Base64.getUrlDecoder().decode(f[2].getBytes(StandardCharsets.US_ASCII));
                OrderedSource.Position p = new OrderedSource.Position(OrderedSource.Part.of(f[1].charAt(0)), term,
                        Integer.parseInt(f[3]));
                return ordered(p, Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]));
            }
            if (!streamed && f.length == 2 && f[0].equals("M")) {
                return materialized(Long.parseLong(f[1]));
            }
            if (!streamed && f.length == 3 && f[0].equals("A") && !f[2].isEmpty()) {
                return carried(Base64.getUrlDecoder().decode(f[1].getBytes(StandardCharsets.US_ASCII)), f[2]);
            }
            if (!streamed && f.length == 4 && f[0].equals("M")) {
                byte[] to = f[3].equals("-") ? null
                        : Base64.getUrlDecoder().decode(f[3].getBytes(StandardCharsets.US_ASCII));
                return ofPart(Long.parseLong(f[1]),
                        Base64.getUrlDecoder().decode(f[2].getBytes(StandardCharsets.US_ASCII)), to);
            }
        } catch (IllegalArgumentException e) {
            // fall through to the error below
        }
        throw malformed();
    }

    /**
     * The service's answer to a continuation token it cannot read: 400, sub-status 0. Two texts are on record and
     * clients test for each: "Invalid Continuation Token" (the JS SDK's query tests, run against the emulator, send
     * "junk") and the sentence the .NET SDKs surface (azure-cosmos-dotnet-v3 issue #3416, -v2 issue #252); the message
     * holds both.
     */
    static ServiceException malformed() {
        return ServiceException.badRequest("Invalid Continuation Token. The continuation token specified in the"
                + " request is malformed. Re-run the query without it and iterate.");
    }
}
