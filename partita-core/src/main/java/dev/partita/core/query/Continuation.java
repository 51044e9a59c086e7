package dev.partita.core.query;

import dev.partita.core.ServiceException;
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
 *   <li>{@code M.<offset>} for materialized queries (ORDER BY, GROUP BY, aggregates, DISTINCT): the rows already
 *       returned.</li>
 * </ul>
 */
record Continuation(boolean indexed, byte[] key, long rowsOfKey, long emitted, long skipped, long offset) {

    static final Continuation START = new Continuation(false, null, 0, 0, 0, 0);

    static Continuation streamed(boolean indexed, byte[] key, long rowsOfKey, long emitted, long skipped) {
        return new Continuation(indexed, key, rowsOfKey, emitted, skipped, 0);
    }

    static Continuation materialized(long offset) {
        return new Continuation(false, null, 0, 0, 0, offset);
    }

    String encode() {
        if (key == null) {
            return "M." + offset;
        }
        return (indexed ? "I." : "S.") + Base64.getUrlEncoder().withoutPadding().encodeToString(key) + "."
                + rowsOfKey + "." + emitted + "." + skipped;
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
            if (!streamed && f.length == 2 && f[0].equals("M")) {
                return materialized(Long.parseLong(f[1]));
            }
        } catch (IllegalArgumentException e) {
            // fall through to the error below
        }
        throw ServiceException.badRequest("The continuation token is not valid for this query; pass the token the"
                + " previous page of the same query returned.");
    }
}
