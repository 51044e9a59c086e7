package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.index.IndexState;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.json.Json;
import dev.partita.core.store.ChunkedWriter;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;

/**
 * Rebuilds a container's index entries under its current indexing policy, after the policy changed or when the
 * entries are incomplete (data stored before indexes existed, a rebuild cut short by a crash).
 *
 * <p>Synchronous, under the writer lock, applied in chunks: the container's index record ({@link IndexState}) is
 * cleared first and written last, so queries scan while the rebuild runs and after a crash in the middle of it, until
 * the next rebuild. Expired items are indexed too, as writes do, so that their purge removes them.
 */
final class Reindexer {
    private Reindexer() {
    }

    static void rebuild(Store store, ContainerInfo c) {
        IndexingPolicy policy = c.indexingPolicy();
        // queries scan from here until the rebuild is complete
        store.apply(new WriteBatch().delete(IndexState.key(c.containerId())));
        ChunkedWriter out = new ChunkedWriter(store);
        try (Snapshot snapshot = store.snapshot()) {
            try (Cursor cur = snapshot.scan(StoreKeys.containerStart(StoreKeys.indexSpace(), c.containerId()),
                    StoreKeys.containerEnd(StoreKeys.indexSpace(), c.containerId()))) {
                while (cur.next()) {
                    out.delete(cur.key());
                }
            }
            if (policy.isIndexing()) {
                byte[][] range = StoreKeys.containerItems(c.containerId());
                try (Cursor cur = snapshot.scan(range[0], range[1])) {
                    while (cur.next()) {
                        String epk = StoreKeys.itemEpk(cur.key());
                        String id = StoreKeys.itemId(cur.key());
                        JsonNode doc = Json.parseObject(StoredItem.wrap(cur.value()).json(), "stored item");
                        for (byte[] term : IndexTerms.of(policy, doc)) {
                            out.put(StoreKeys.index(c.containerId(), term, epk, id));
                        }
                    }
                }
            }
        }
        out.flush();
        // only now may queries use the entries (until here they scan)
        store.apply(new WriteBatch().put(IndexState.key(c.containerId()), IndexState.value(policy)));
    }

    /** Whether the entries are not complete for the container's current policy. */
    static boolean isStale(Store store, ContainerInfo c) {
        return !IndexState.isReady(store, c.containerId(), c.indexingPolicy());
    }
}
