package dev.partita.core.changefeed;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.item.StoredItem;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each container's change log to what the service keeps: every live item's latest version, which the
 * latest-version change feed serves "from the beginning" for the life of the container, and the superseded versions
 * and deletes of the all-versions-and-deletes window ({@link ChangeLogRetention#of}) only. Within the window those
 * are also held to {@link Limits#maxChangeLogBytes()}: over it, the oldest go first, as if the window were shorter.
 * The largest dropped LSN is kept as a mark, so an all-versions read from an older continuation gets the 400 the
 * service answers past its window rather than missing changes. Background maintenance runs it.
 */
public final class ChangeLogPruner {
    /**
     * Telling a superseded version from a latest one takes a read per record, so the whole log is measured only when
     * it may be over budget: the bytes it held when last measured plus those written since bound what it holds now.
     * Between measurements only the new records are read, and at least a sixteenth of the budget must have been
     * written before the next measurement, so a large log under light writes is not rescanned every pass.
     */
    private record Measured(long logBytes, long writtenSince, long readTo) {
    }

    /** A superseded version or a delete inside the window: what the budget may drop, oldest first. */
    private record Droppable(byte[] key, long lsn, int bytes) {
    }

    private final Map<Integer, Measured> measured = new ConcurrentHashMap<>();

    /** Prunes one container at {@code nowSeconds}; returns how many records were dropped. */
    public int prune(Store store, ContainerInfo c, Limits limits, long nowSeconds) {
        long cutoff = nowSeconds - ChangeLogRetention.of(c, limits).toSeconds();
        long budget = limits.maxChangeLogBytes();
        long head = Bytes.longValue(store.get(StoreKeys.containerLsn(c.containerId())));
        Measured last = measured.get(c.containerId());
        long written = last == null ? 0 : last.writtenSince() + bytesWritten(store, c, last.readTo(), head);
        boolean measure = last == null
                || last.logBytes() + written > budget && written >= Math.max(1, budget / 16);
        WriteBatch batch = new WriteBatch();
        ArrayDeque<Droppable> inWindow = new ArrayDeque<>();
        long inWindowBytes = 0;
        long logBytes = 0;
        long floor = -1;
        int dropped = 0;
        try (Cursor cur = store.scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
            while (cur.next()) {
                ChangeRecord.Header r = ChangeRecord.peek(cur.value());
                if (r.ts() >= cutoff && !measure) {
                    break;
                }
                if (isLatestVersion(store, c, r)) {
                    logBytes += cur.value().length;
                } else if (r.ts() < cutoff) {
                    batch.delete(cur.key());
                    floor = r.lsn();
                    dropped++;
                } else {
                    inWindow.addLast(new Droppable(cur.key(), r.lsn(), cur.value().length));
                    inWindowBytes += cur.value().length;
                }
            }
        }
        while (inWindowBytes > budget) {
            Droppable d = inWindow.pollFirst();
            batch.delete(d.key());
            floor = d.lsn();
            inWindowBytes -= d.bytes();
            dropped++;
        }
        measured.put(c.containerId(), measure ? new Measured(logBytes + inWindowBytes, 0, head)
                : new Measured(last.logBytes(), written, head));
        if (!batch.isEmpty()) {
            // a record kept earlier as a latest version may be dropped later: the mark never goes down
            long mark = Math.max(floor, ChangeLogRetention.floor(store, c.containerId()));
            store.apply(batch.put(StoreKeys.changeLogFloor(c.containerId()), Bytes.longBytes(mark)));
        }
        return dropped;
    }

    /**
     * At least the bytes the log grew by through the writes logged after {@code fromLsn} up to {@code toLsn}: their
     * records, and for each that superseded a version logged earlier, that version's record, which the write filled
     * with its image ({@link ChangeRecord}); counted whole, so the bound stays an upper one.
     */
    private static long bytesWritten(Store store, ContainerInfo c, long fromLsn, long toLsn) {
        long bytes = 0;
        if (toLsn > fromLsn) {
            try (Cursor cur = store.scan(StoreKeys.log(c.containerId(), fromLsn + 1),
                    StoreKeys.log(c.containerId(), toLsn + 1))) {
                while (cur.next()) {
                    bytes += cur.value().length;
                    long superseded = ChangeRecord.previousLsn(cur.value());
                    if (superseded > 0 && superseded <= fromLsn) {
                        byte[] record = store.get(StoreKeys.log(c.containerId(), superseded));
                        bytes += record == null ? 0 : record.length;
                    }
                }
            }
        }
        return bytes;
    }

    private static boolean isLatestVersion(Store store, ContainerInfo c, ChangeRecord.Header r) {
        if (r.operation().isDelete()) {
            return false;
        }
        byte[] current = store.get(StoreKeys.item(c.containerId(), r.epk(), r.id()));
        return current != null && StoredItem.wrap(current).lsn() == r.lsn();
    }
}
