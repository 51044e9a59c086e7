package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.item.StoredItem;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.StoreKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Per container and path, the items whose value there is not a scalar: undefined (the path is missing) or an array or
 * object. The index holds terms only for scalars, yet ORDER BY returns these items too (undefined first ascending,
 * arrays and objects after strings), so an ordered read through the index needs them from elsewhere. An explicitly
 * included path has them marked in the index itself ({@code IndexingPolicy.marksNonScalars}); this set serves the
 * paths indexed through a wildcard, such as every path of the default policy.
 *
 * <p>Built by one scan of the container the first time a path is sorted on (spread over requests, each within its
 * budget: see {@link #build}), then kept current from the change log
 * (every write leaves a record keyed by LSN): a query reads the records after the LSN the set was last brought to and
 * re-classifies just those items. The set is Partita's bookkeeping, not work the service would do, so it is not
 * charged to the query. Lost on restart and rebuilt on demand.
 */
final class NonScalarItems {
    enum Kind {
        UNDEFINED, CONTAINER
    }

    private static final int PATHS_KEPT = 32;

    private record Key(int container, List<String> path) {
    }

    private static final class PathSet {
        final TreeMap<byte[], Kind> items = new TreeMap<>(Bytes.COMPARATOR);
        long lsn = -1;
        /** While the build runs over several requests: the item key it resumes at, and the LSN it started at. */
        byte[] buildFrom;
        long buildLsn;
    }

    private final Map<Key, PathSet> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, PathSet> eldest) {
            return size() > PATHS_KEPT;
        }
    };

    /**
     * The item keys of one kind inside the item-key interval {@code [from, to)} as the snapshot has them, in key order.
     *
     * @param lsn the container's LSN read before the snapshot was taken (at most the snapshot's own)
     */
    List<byte[]> in(Snapshot snapshot, int container, List<String> path, long lsn, byte[] from, byte[] to,
            Kind kind, Deadline deadline) {
        PathSet entry;
        synchronized (entries) {
            entry = entries.computeIfAbsent(new Key(container, path), k -> new PathSet());
        }
        synchronized (entry) {
            PathSet view = entry;
            if (entry.lsn < 0) {
                build(snapshot, container, path, lsn, entry, deadline);
            } else if (lsn < entry.lsn) {
                // a newer query moved the set past this snapshot: classify this scope afresh for this one query
                PathSet fresh = new PathSet();
                try (Cursor cursor = snapshot.scan(from, to)) {
                    while (cursor.next()) {
                        classify(fresh, cursor.key(), cursor.value(), path);
                    }
                }
                view = fresh;
            } else {
                catchUp(snapshot, container, path, entry);
            }
            NavigableMap<byte[], Kind> range = to == null ? view.items.tailMap(from, true)
                    : view.items.subMap(from, true, to, false);
            List<byte[]> out = new ArrayList<>();
            for (Map.Entry<byte[], Kind> e : range.entrySet()) {
                if (e.getValue() == kind) {
                    out.add(e.getKey());
                }
            }
            return out;
        }
    }

    /**
     * Builds the set by one scan of the container, spread over as many requests as it takes: each scans on from where
     * the last one stopped until its deadline (one item at least) and, when items remain, fails with 408, so no
     * request runs past its budget by more than one item and the next query on the path takes the build on. The
     * parts are read from different snapshots, so the build ends by re-classifying every item written since it
     * started, from the change log (or starts again, should the log have been pruned past that point).
     */
    private static void build(Snapshot snapshot, int container, List<String> path, long lsn, PathSet entry,
            Deadline deadline) {
        byte[][] all = StoreKeys.containerItems(container);
        if (entry.buildFrom == null) {
            entry.buildFrom = all[0];
            entry.buildLsn = lsn;
        }
        try (Cursor cursor = snapshot.scan(entry.buildFrom, all[1])) {
            boolean any = false;
            while (cursor.next()) {
                if (any && deadline.passed()) {
                    entry.buildFrom = cursor.key().clone();
                    throw QueryErrors.timedOut();
                }
                classify(entry, cursor.key(), cursor.value(), path);
                any = true;
            }
        }
        entry.buildFrom = null;
        if (Bytes.longValue(snapshot.get(StoreKeys.changeLogFloor(container))) > entry.buildLsn) {
            entry.items.clear();
            throw QueryErrors.timedOut();
        }
        entry.lsn = entry.buildLsn;
        catchUp(snapshot, container, path, entry);
    }

    /** Re-classifies the items written since the set's LSN, as this snapshot has them. */
    private static void catchUp(Snapshot snapshot, int container, List<String> path, PathSet entry) {
        try (Cursor log = snapshot.scan(StoreKeys.log(container, entry.lsn + 1),
                StoreKeys.containerEnd(StoreKeys.logSpace(), container))) {
            while (log.next()) {
                ChangeRecord.Header h = ChangeRecord.peek(log.value());
                byte[] itemKey = StoreKeys.item(container, h.epk(), h.id());
                classify(entry, itemKey, snapshot.get(itemKey), path);
                entry.lsn = Math.max(entry.lsn, h.lsn());
            }
        }
    }

    private static void classify(PathSet entry, byte[] itemKey, byte[] stored, List<String> path) {
        Kind kind = null;
        if (stored != null) {
            StoredItem item = StoredItem.wrap(stored);
            JsonNode v = SortKeys.at(Json.parse(item.json(), "stored item"), path);
            kind = v == null ? Kind.UNDEFINED : v.isContainerNode() ? Kind.CONTAINER : null;
        }
        if (kind == null) {
            entry.items.remove(itemKey);
        } else {
            entry.items.put(itemKey, kind);
        }
    }
}
