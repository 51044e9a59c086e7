package dev.partita.core.changefeed;

import dev.partita.core.request.Scope;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.item.PartitionDeletes;
import dev.partita.core.item.StoredItem;
import dev.partita.core.item.Visibility;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.EpkRange;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a container's change log (one record per write, keyed by LSN) as a change feed page, in either mode.
 *
 * <p>One scan in LSN order, from the start point up to the committed watermark of a store snapshot (no LSN below it is
 * still being staged by another partition's writer, so nothing is skipped), keeps the records whose
 * EPK lies in the scope. The log stays ordered by LSN alone (not by EPK) because a scope is a key interval that splits
 * change: any range is a filter over the one sequence, so children continue exactly where their parent's etag left
 * off, and a page is always in LSN order. The cost is that a scope reads the headers of the other scopes' records
 * since its continuation; a page that is not full advances its etag to the end of what it looked at, so each record
 * is looked at about once per polled scope.
 *
 * <p>Latest-version mode returns a create or replace only while it is still the item's stored version (read from the
 * same snapshot) and the item is live: each item once, at its latest LSN, nothing for deleted or expired items, nor
 * for the items of a deleted partition key (from the request on, before the background removes them).
 *
 * <p>A page is bounded by the request's deadline: a scope whose log holds many records of other scopes or superseded
 * versions since its continuation can be looked at for longer than a request may take. Past the deadline the page
 * ends after the record it is on, with the changes found so far and an etag at that record; empty, it is a 200 with
 * no documents rather than a 304 (which would tell the SDK the range is drained), so the SDK asks again at once.
 */
public final class ChangeFeedReader {
    /** The service's words for a read of the all-versions feed from outside its window (the SDKs' tests match them). */
    private static final String OUTSIDE_RETENTION = "You must read the change feed from within the retention period.";

    private final Store store;
    private final Clock clock;
    private final Limits limits;

    public ChangeFeedReader(Store store, Clock clock, Limits limits) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
    }

    /**
     * One page. Its {@link Work} (kind {@code CHANGE_FEED}) counts the log records looked at as
     * {@code indexEntriesRead}, the records loaded in full as {@code itemsLoaded}/{@code bytesLoaded}, and the returned
     * changes with their document sizes as {@code rowsReturned}/{@code bytesReturned}.
     *
     * @param c            the container as the catalog has it now (its partition map decides gone ranges)
     * @param maxItemCount changes per page; 0 or less for "as many as fit in a response"
     * @param deadline     when the page must end, with what it found (see the class comment)
     * @throws ServiceException 410/1002 for a gone range id; 400 for an all-versions read that starts from the
     *                          beginning or from a continuation older than the retention window
     */
    public ChangeFeedPage read(ContainerInfo c, Scope scope, ChangeFeedStart start, int maxItemCount,
            ChangeFeedMode mode, Deadline deadline) {
        Scope.Target target = scope.target(c.partitionKey(), c.partitions(), limits);
        String rangeId = target.owner().id();
        boolean allVersions = mode == ChangeFeedMode.ALL_VERSIONS_AND_DELETES;
        if (allVersions && start.kind() == ChangeFeedStart.Kind.BEGINNING) {
            throw ServiceException.badRequest(OUTSIDE_RETENTION + " The all-versions-and-deletes change feed"
                    + " starts only from now or from a continuation; read from the beginning in latest-version mode.");
        }
        int pageSize = maxItemCount <= 0 ? Integer.MAX_VALUE : maxItemCount;
        long now = clock.millis() / 1000;
        long since = start.modifiedSince() == null ? Long.MIN_VALUE : start.modifiedSince().getEpochSecond();
        try (Snapshot snap = store.snapshot()) {
            long head = headLsn(snap, c.containerId());
            if (start.kind() == ChangeFeedStart.Kind.NOW) {
                return new ChangeFeedPage(List.of(), head, head, rangeId,
                        Work.scan(Work.Operation.CHANGE_FEED, 0, 0, 0, 0, 0));
            }
            long after = start.kind() == ChangeFeedStart.Kind.BEGINNING ? 0 : start.afterLsn();
            if (allVersions && after < ChangeLogRetention.floor(snap, c.containerId())) {
                throw ServiceException.badRequest(OUTSIDE_RETENTION + " The continuation is older than the"
                        + " container's all-versions-and-deletes retention window (" + ChangeLogRetention.of(c, limits)
                        + ", at most " + limits.maxChangeLogBytes() + " bytes of superseded versions); its changes"
                        + " were pruned. Start again from now.");
            }
            Visibility visible = new Visibility(now, PartitionDeletes.load(snap, c.containerId()));
            List<ChangeRecord> out = new ArrayList<>();
            long scanned = 0;
            long loaded = 0;
            long loadedBytes = 0;
            long returnedBytes = 0;
            long continuation = head;
            if (after < head) {
                try (Cursor cur = snap.scan(StoreKeys.log(c.containerId(), after + 1),
                        StoreKeys.log(c.containerId(), head + 1))) {
                    while (cur.next()) {
                        ChangeRecord.Header h = ChangeRecord.peek(cur.value());
                        if (scanned > 0 && deadline.passed()) {
                            continuation = h.lsn() - 1;
                            break;
                        }
                        scanned++;
                        if (!target.matches(h.epk()) || h.ts() < since) {
                            continue;
                        }
                        StoredItem latest = allVersions ? null : latestLiveVersion(snap, c, h, visible);
                        if (!allVersions && latest == null) {
                            continue;
                        }
                        ChangeRecord r = ChangeRecord.decode(cur.value());
                        if (!h.operation().isDelete() && r.newImage() == null) {
                            r = r.withNewImage(imageInItem(snap, c, h, latest));
                        }
                        loaded++;
                        loadedBytes += cur.value().length + (r.newImage() == null ? 0 : r.newImage().length);
                        out.add(r);
                        returnedBytes += r.newImage() != null ? r.newImage().length : 64 + r.id().length();
                        if (out.size() >= pageSize || returnedBytes >= limits.maxResponseBytes()) {
                            continuation = r.lsn();
                            break;
                        }
                    }
                }
            }
            Work work = Work.scan(Work.Operation.CHANGE_FEED, scanned, loaded, loadedBytes, out.size(),
                    returnedBytes);
            return new ChangeFeedPage(out, continuation, head, rangeId, work);
        }
    }

    /**
     * The container's committed watermark as the snapshot sees it (written in the batches that move it): writers of
     * other partitions may have committed higher LSNs, but none at or below it is still to come.
     */
    static long headLsn(Snapshot snap, int containerId) {
        return Bytes.longValue(snap.get(StoreKeys.containerLsn(containerId)));
    }

    /** The item's stored version if it is the one {@code h} logged and reads see it; else null. */
    private static StoredItem latestLiveVersion(Snapshot snap, ContainerInfo c, ChangeRecord.Header h,
            Visibility visible) {
        if (h.operation().isDelete()) {
            return null;
        }
        byte[] raw = snap.get(StoreKeys.item(c.containerId(), h.epk(), h.id()));
        if (raw == null) {
            return null;
        }
        StoredItem item = StoredItem.wrap(raw);
        return item.lsn() == h.lsn() && visible.sees(h.epk(), item) ? item : null;
    }

    /**
     * The image of a create or replace logged without it: the item's stored version at the record's LSN, which the
     * same snapshot holds (a write that supersedes it puts the image into the record in the same batch).
     */
    private static byte[] imageInItem(Snapshot snap, ContainerInfo c, ChangeRecord.Header h, StoredItem latest) {
        StoredItem item = latest;
        if (item == null) {
            byte[] raw = snap.get(StoreKeys.item(c.containerId(), h.epk(), h.id()));
            item = raw == null ? null : StoredItem.wrap(raw);
        }
        if (item == null || item.lsn() != h.lsn()) {
            throw new IllegalStateException("change record " + h.lsn() + " has no image and the item holds another"
                    + " version");
        }
        return item.json();
    }
}
