package dev.partita.core.request;

/**
 * The session token format the SDKs parse: {@code <rangeId>:-1#<lsn>} (protocol.md §6), the one place it is written.
 * The {@code -1} is the region-progress version a single-region account leaves unset.
 */
public final class SessionToken {
    private SessionToken() {
    }

    /** The token for a read or write served by physical partition {@code rangeId} at {@code lsn}. */
    public static String of(String rangeId, long lsn) {
        return rangeId + ":-1#" + lsn;
    }
}
