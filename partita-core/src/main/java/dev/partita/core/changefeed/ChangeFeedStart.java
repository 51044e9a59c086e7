package dev.partita.core.changefeed;

import dev.partita.core.error.ServiceException;
import java.time.Instant;

/**
 * Where a change-feed read starts: from the beginning, from now, or after a continuation (an LSN handed out as the
 * page etag), optionally only with changes at or after a point in time. The SDK sends the point in time
 * ({@code If-Modified-Since}) on every request of a point-in-time feed, also once it has a continuation, so both
 * filters can apply together.
 *
 * @param kind          where the read starts
 * @param afterLsn      for {@link Kind#CONTINUATION}: changes with a larger LSN are returned
 * @param modifiedSince only changes written at or after this instant (seconds precision, like {@code _ts}); or null
 */
public record ChangeFeedStart(Kind kind, long afterLsn, Instant modifiedSince) {

    public enum Kind {
        BEGINNING, NOW, CONTINUATION
    }

    public static ChangeFeedStart beginning() {
        return new ChangeFeedStart(Kind.BEGINNING, 0, null);
    }

    public static ChangeFeedStart now() {
        return new ChangeFeedStart(Kind.NOW, 0, null);
    }

    public static ChangeFeedStart pointInTime(Instant t) {
        return new ChangeFeedStart(Kind.BEGINNING, 0, t);
    }

    public static ChangeFeedStart after(long lsn) {
        return new ChangeFeedStart(Kind.CONTINUATION, lsn, null);
    }

    public ChangeFeedStart withModifiedSince(Instant t) {
        return new ChangeFeedStart(kind, afterLsn, t);
    }

    /** The page etag for a position: the LSN as a quoted decimal, the form the SDK's lag estimator parses. */
    public static String etag(long lsn) {
        return "\"" + lsn + "\"";
    }

    /**
     * The start a request names with {@code If-None-Match}: absent = beginning, {@code *} = now, else an etag this
     * feed handed out (quotes optional).
     */
    public static ChangeFeedStart fromIfNoneMatch(String ifNoneMatch) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return beginning();
        }
        String v = ifNoneMatch.trim();
        if (v.equals("*")) {
            return now();
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        try {
            long lsn = Long.parseLong(v);
            if (lsn < 0) {
                throw new NumberFormatException();
            }
            return after(lsn);
        } catch (NumberFormatException e) {
            throw ServiceException.badRequest("The change feed continuation (If-None-Match) is not an etag this"
                    + " change feed handed out; start from the beginning, from now or from a returned etag.");
        }
    }
}
