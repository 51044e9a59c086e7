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
import java.util.Objects;
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
    /** A superseded version or a delete inside the window: what the budget may drop, oldest first. */
    private record Droppable(byte[] key, long lsn, int bytes) {
    }

    /** Per container, the head LSN its log was last measured against the budget at: an idle log is not rescanned. */
    private final Map<Integer, Long> measuredAt = new ConcurrentHashMap<>();

    /** Prunes one container at {@code nowSeconds}; returns how many records were dropped. */
    public int prune(Store store, ContainerInfo c, Limits limits, long nowSeconds) {
        long cutoff = nowSeconds - ChangeLogRetention.of(c, limits).toSeconds();
        long head = Bytes.longValue(store.get(StoreKeys.containerLsn(c.containerId())));
        boolean measure = !Objects.equals(measuredAt.put(c.containerId(), head), head);
        WriteBatch batch = new WriteBatch();
        ArrayDeque<Droppable> inWindow = new ArrayDeque<>();
        long inWindowBytes = 0;
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
                    continue;
                }
                if (r.ts() < cutoff) {
                    batch.delete(cur.key());
                    floor = r.lsn();
                    dropped++;
                } else {
                    inWindow.addLast(new Droppable(cur.key(), r.lsn(), cur.value().length));
                    inWindowBytes += cur.value().length;
                }
            }
        }
        while (inWindowBytes > limits.maxChangeLogBytes()) {
            Droppable d = inWindow.pollFirst();
            batch.delete(d.key());
            floor = d.lsn();
            inWindowBytes -= d.bytes();
            dropped++;
        }
        if (!batch.isEmpty()) {
            // a record kept earlier as a latest version may be dropped later: the mark never goes down
            long mark = Math.max(floor, ChangeLogRetention.floor(store, c.containerId()));
            store.apply(batch.put(StoreKeys.changeLogFloor(c.containerId()), Bytes.longBytes(mark)));
        }
        return dropped;
    }

    private static boolean isLatestVersion(Store store, ContainerInfo c, ChangeRecord.Header r) {
        if (r.operation().isDelete()) {
            return false;
        }
        byte[] current = store.get(StoreKeys.item(c.containerId(), r.epk(), r.id()));
        return current != null && StoredItem.wrap(current).lsn() == r.lsn();
    }
}
