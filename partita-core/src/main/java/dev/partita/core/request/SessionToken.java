package dev.partita.core.request;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.partition.PhysicalPartition;
import java.util.Collection;

/**
 * The session token format the SDKs parse: {@code <rangeId>:-1#<lsn>} (protocol.md §6), the one place it is written,
 * and the one place a client's token is read. The {@code -1} is the region-progress version a single-region account
 * leaves unset.
 */
public final class SessionToken {
    private SessionToken() {
    }

    /** The token for a read or write served by physical partition {@code rangeId} at {@code lsn}. */
    public static String of(String rangeId, long lsn) {
        return rangeId + ":-1#" + lsn;
    }

    /**
     * Refuses a session read that {@code partitions} cannot serve yet: the service's 404 with sub-status 1002 when
     * the client's token for one of them (a comma-separated list of {@code <rangeId>:<token>} pairs; a pair counts
     * for a partition when it names the partition or one of its parents, as a split leaves the client holding the
     * parent's token) asks for an LSN past {@code committedLsn} (capacity.md §6). Pairs of other ranges are ignored,
     * as the service ignores them (the read falls back to eventual); a pair that is not a token is a 400.
     */
    public static void requireCaughtUp(String header, Collection<PhysicalPartition> partitions, long committedLsn) {
        if (header == null || header.isEmpty()) {
            return;
        }
        for (String pair : header.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int colon = pair.indexOf(':');
            if (colon <= 0 || pair.indexOf(':', colon + 1) >= 0) {
                throw invalid(header);
            }
            String rangeId = pair.substring(0, colon).strip();
            long lsn = globalLsn(pair.substring(colon + 1).strip(), header);
            if (lsn > committedLsn && names(partitions, rangeId)) {
                throw new ServiceException(404, SubStatus.READ_SESSION_NOT_AVAILABLE,
                        "The read session is not available for the input session token.");
            }
        }
    }

    /** The global LSN of one range's token: {@code <lsn>} (the simple form) or {@code <version>#<lsn>[#<region>=<lsn>]*}. */
    private static long globalLsn(String token, String header) {
        String[] parts = token.split("#", -1);
        try {
            if (parts.length == 1) {
                return Long.parseLong(parts[0]);
            }
            Long.parseLong(parts[0]);
            for (int i = 2; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq <= 0) {
                    throw invalid(header);
                }
                Integer.parseInt(parts[i].substring(0, eq));
                Long.parseLong(parts[i].substring(eq + 1));
            }
            return Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            throw invalid(header);
        }
    }

    private static boolean names(Collection<PhysicalPartition> partitions, String rangeId) {
        for (PhysicalPartition p : partitions) {
            if (p.id().equals(rangeId) || p.parents().contains(rangeId)) {
                return true;
            }
        }
        return false;
    }

    private static ServiceException invalid(String header) {
        return ServiceException.badRequest("The session token provided '" + header + "' is invalid.");
    }
}
