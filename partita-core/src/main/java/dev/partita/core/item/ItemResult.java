package dev.partita.core.item;

import dev.partita.core.capacity.Work;

/**
 * The outcome of a point operation.
 *
 * @param status  HTTP status: 200, 201, 204, or 304 for a read whose {@code If-None-Match} matched
 * @param item    the stored item (null for deletes and 304)
 * @param etag    the item's etag after the operation (null for deletes)
 * @param lsn     the LSN of this write, or the container's current LSN for reads
 * @param rangeId the physical partition that served the operation
 * @param work    what the operation did, for the cost model
 */
public record ItemResult(int status, StoredItem item, String etag, long lsn, String rangeId, Work work) {

    /** The session token in the SDK's form {@code <rangeId>:-1#<lsn>}. */
    public String sessionToken() {
        return rangeId + ":-1#" + lsn;
    }
}
