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

/**
 * Drops change-log records older than a container's all-versions retention window ({@link ChangeLogRetention#of}),
 * except each live item's latest version, which the latest-version change feed serves "from the beginning" for the
 * life of the container. The largest dropped LSN is kept as a mark, so an all-versions read from an older
 * continuation fails rather than missing changes. Background maintenance runs it.
 */
public final class ChangeLogPruner {
    private ChangeLogPruner() {
    }

    /** Prunes one container at {@code nowSeconds}; returns how many records were dropped. */
    public static int prune(Store store, ContainerInfo c, Limits limits, long nowSeconds) {
        long cutoff = nowSeconds - ChangeLogRetention.of(c, limits).toSeconds();
        WriteBatch batch = new WriteBatch();
        long floor = -1;
        int dropped = 0;
        try (Cursor cur = store.scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
            while (cur.next()) {
                ChangeRecord.Header r = ChangeRecord.peek(cur.value());
                if (r.ts() >= cutoff) {
                    break;
                }
                if (!isLatestVersion(store, c, r)) {
                    batch.delete(cur.key());
                    floor = r.lsn();
                    dropped++;
                }
            }
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
