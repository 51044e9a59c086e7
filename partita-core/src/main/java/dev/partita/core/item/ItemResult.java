package dev.partita.core.item;

import dev.partita.core.capacity.Work;
import dev.partita.core.request.SessionToken;

/**
 * The outcome of a point operation.
 *
 * @param status        HTTP status: 200, 201, 204, or 304 for a read whose {@code If-None-Match} matched
 * @param item          the stored item (null for deletes and 304)
 * @param etag          the item's etag after the operation (null for deletes)
 * @param lsn           the LSN of this write, or the container's current LSN for reads
 * @param rangeId       the physical partition that served the operation
 * @param work          what the operation did, for the cost model
 * @param requestCharge its price in request units (0 until the engine prices it)
 */
public record ItemResult(int status, StoredItem item, String etag, long lsn, String rangeId, Work work,
        double requestCharge) {

    public ItemResult(int status, StoredItem item, String etag, long lsn, String rangeId, Work work) {
        this(status, item, etag, lsn, rangeId, work, 0);
    }

    public ItemResult withCharge(double ru) {
        return new ItemResult(status, item, etag, lsn, rangeId, work, ru);
    }

    /** The session token ({@link SessionToken}). */
    public String sessionToken() {
        return SessionToken.of(rangeId, lsn);
    }
}
