package dev.partita.core.changefeed;

import dev.partita.core.store.ChangeRecord;
import dev.partita.core.capacity.Work;
import dev.partita.core.request.SessionToken;
import java.util.List;

/**
 * One page of a change feed.
 *
 * @param changes         the changes in LSN order; empty, with the read at the head, means "nothing new" (the gateway
 *                        answers 304)
 * @param continuationLsn where the next read of the same scope continues (sent as the page etag): the LSN of the last
 *                        change when the page is full, else the LSN the read looked up to (below the head when the
 *                        request's deadline ended it)
 * @param headLsn         the container's committed LSN the read saw (sent in the session token; the SDK's "end of
 *                        current changes" and lag estimates compare etags against it)
 * @param rangeId         the physical partition that owns the scope (or its start), for the session token
 * @param work            what the read did, for the cost model
 * @param requestCharge   its price (0 until the engine prices it)
 */
public record ChangeFeedPage(List<ChangeRecord> changes, long continuationLsn, long headLsn, String rangeId,
        Work work, double requestCharge) {

    public ChangeFeedPage(List<ChangeRecord> changes, long continuationLsn, long headLsn, String rangeId, Work work) {
        this(changes, continuationLsn, headLsn, rangeId, work, 0);
    }

    public ChangeFeedPage withCharge(double ru) {
        return new ChangeFeedPage(changes, continuationLsn, headLsn, rangeId, work, ru);
    }

    public ChangeFeedPage {
        changes = List.copyOf(changes);
    }

    /** Nothing new up to the head; an empty page the deadline ended early is not that, and asks to be continued. */
    public boolean notModified() {
        return changes.isEmpty() && continuationLsn >= headLsn;
    }

    /** The continuation as the page etag (a quoted decimal LSN). */
    public String etag() {
        return ChangeFeedStart.etag(continuationLsn);
    }

    /** The session token at {@code headLsn}, from the same LSN counter as the etags. */
    public String sessionToken() {
        return SessionToken.of(rangeId, headLsn);
    }
}
