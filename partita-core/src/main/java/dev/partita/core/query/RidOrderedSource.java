package dev.partita.core.query;

import dev.partita.core.index.IndexCursor;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.item.StoredItem;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The candidates of a streamed query (a scan, or an index lookup) in document order: the order of the items' rid
 * document numbers, which is creation order. Within a physical partition the service answers a query without ORDER BY
 * in that order, whatever the items' partition keys and ids, and clients rely on it (the JavaScript SDK's own query
 * tests read back three items in the order they were created); the store keeps items in key order (EPK, then id).
 *
 * <p>Each page gathers the scope's visible candidates with their rid numbers (read from the stored header, no parse),
 * sorts them and reads the items from the page's resume point on. That costs a walk of the whole scope per page, so
 * it is done only for scopes of at most {@link #MAX_CANDIDATES} items — the scopes tests and small containers have,
 * whatever the query's filter; a larger scope (or an index walk that examines more terms than that) is read in key
 * order as before, and its continuation says so. A continuation of this order names the rid number it stopped at ({@link #isRidKey}); a page
 * resumed from one gathers the whole scope, however it grew. A scope found larger is remembered ({@link
 * LargeScopes}), so the queries of a large container pay the gathering once, not on every first page.
 */
final class RidOrderedSource extends ItemSource {
    /** The largest scope read in rid order: gathering it costs well under a millisecond per page in memory. */
    static final int MAX_CANDIDATES = 5_000;
    private static final byte MARK = 'R';

    private final Snapshot snapshot;
    private final long[] rids;
    private final byte[][] keys;
    private final int count;
    /** Whether the candidates came from index entries, which a page's work counts. */
    private final boolean fromIndex;
    private int next;

    private RidOrderedSource(Snapshot snapshot, Gathered g, byte[] resume, boolean fromIndex, Visibility visible) {
        super(visible);
        this.snapshot = snapshot;
        this.fromIndex = fromIndex;
        this.rids = g.rids;
        this.keys = g.keys;
        this.count = g.count;
        if (resume != null) {
            while (next < count && Bytes.compare(ridKey(rids[next]), resume) < 0) {
                next++;
            }
        }
    }

    /** True for a continuation key of this order (item and index entry keys start with their space's tag). */
    static boolean isRidKey(byte[] key) {
        return key != null && key.length >= 9 && key[0] == MARK;
    }

    /**
     * The items of {@code [bounds.from, bounds.to)} in rid order from {@code resume} (a rid key or null), or null when
     * a read from the start finds more than {@link #MAX_CANDIDATES}.
     */
    static RidOrderedSource scan(Snapshot snapshot, QueryExecutor.Bounds bounds, byte[] resume, Visibility visible) {
        int max = resume == null ? MAX_CANDIDATES : Integer.MAX_VALUE;
        Gathered g = new Gathered();
        try (Cursor cursor = snapshot.scan(bounds.from(), bounds.to())) {
            while (cursor.next()) {
                g.add(cursor.key(), cursor.value(), visible);
                if (g.count > max) {
                    return null;
                }
            }
        }
        return new RidOrderedSource(snapshot, g.sorted(), resume, false, visible);
    }

    /** Whether the scope holds at most {@link #MAX_CANDIDATES} items, versions hidden from reads included. */
    static boolean isSmall(Snapshot snapshot, QueryExecutor.Bounds bounds) {
        int n = 0;
        try (Cursor cursor = snapshot.scan(bounds.from(), bounds.to())) {
            while (cursor.next()) {
                if (++n > MAX_CANDIDATES) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The candidates of an index lookup within {@code bounds} in rid order from {@code resume}, or null when a read
     * from the start finds more than {@link #MAX_CANDIDATES} candidates, walks more than that many terms, or reaches
     * the deadline (the key-ordered read stops and resumes where it is).
     */
    static RidOrderedSource lookup(Snapshot snapshot, int container, IndexLookup lookup, QueryExecutor.Bounds bounds,
            byte[] resume, Visibility visible, Deadline deadline) {
        boolean bounded = resume == null;
        Gathered g = new Gathered();
        long walked = 0;
        for (byte[][] r : lookup.ranges()) {
            try (IndexCursor cursor = lookup.open(snapshot, r[0], r[1]).until(bounded ? deadline : Deadline.NONE)) {
                while (cursor.next()) {
                    walked++;
                    if (bounded && deadline.passed()) {
                        return null;
                    }
                    byte[] itemKey = IndexTerms.itemKey(container, cursor.key());
                    if (bounds.contains(itemKey)) {
                        g.add(itemKey, snapshot.get(itemKey), visible);
                    }
                    if (bounded && (g.count > MAX_CANDIDATES || walked + cursor.termsExamined() > MAX_CANDIDATES)) {
                        return null;
                    }
                }
                walked += cursor.termsExamined();
                if (cursor.stopped() || bounded && walked > MAX_CANDIDATES) {
                    return null;
                }
            }
        }
        return new RidOrderedSource(snapshot, g.sorted(), resume, true, visible);
    }

    @Override
    byte[] advance() {
        while (next < count) {
            int i = next++;
            if (i > 0 && rids[i] == rids[i - 1]) {
                // one item matched by two terms or ranges of a lookup is one candidate
                continue;
            }
            position = ridKey(rids[i]);
            itemKey = keys[i];
            if (fromIndex) {
                entriesRead++;
            }
            return snapshot.get(itemKey);
        }
        return END;
    }

    private static byte[] ridKey(long rid) {
        byte[] k = new byte[9];
        k[0] = MARK;
        Bytes.putLong(k, 1, rid);
        return k;
    }

    /**
     * The scopes (key intervals of a container) a gathering found larger than {@link #MAX_CANDIDATES}, with the
     * container's LSN then: their first pages read in key order at once, until as many writes have happened as could
     * have shrunk them back under the bound. Bounded: past {@link #MAX_SCOPES} remembered scopes it starts over.
     */
    static final class LargeScopes {
        private static final int MAX_SCOPES = 4_096;
        private final Map<String, Long> foundAt = new ConcurrentHashMap<>();

        boolean isLarge(QueryExecutor.Bounds bounds, long lsn) {
            Long at = foundAt.get(key(bounds));
            return at != null && lsn - at < MAX_CANDIDATES;
        }

        void large(QueryExecutor.Bounds bounds, long lsn) {
            if (foundAt.size() >= MAX_SCOPES) {
                foundAt.clear();
            }
            foundAt.put(key(bounds), lsn);
        }

        private static String key(QueryExecutor.Bounds bounds) {
            return Arrays.toString(bounds.from()) + (bounds.to() == null ? "" : Arrays.toString(bounds.to()));
        }
    }

    /** Candidate keys with their rid numbers, gathered in key order and then sorted by rid. */
    private static final class Gathered {
        long[] rids = new long[16];
        byte[][] keys = new byte[16][];
        int count;

        /** Adds the item when it is there and visible. */
        void add(byte[] key, byte[] raw, Visibility visible) {
            if (raw == null) {
                return;
            }
            StoredItem item = StoredItem.wrap(raw);
            if (!visible.sees(key, item)) {
                return;
            }
            if (count == rids.length) {
                rids = Arrays.copyOf(rids, count * 2);
                keys = Arrays.copyOf(keys, count * 2);
            }
            rids[count] = item.ridSequence();
            keys[count++] = key.clone();
        }

        Gathered sorted() {
            Integer[] order = new Integer[count];
            for (int i = 0; i < count; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(rids[a], rids[b]));
            long[] r = new long[count];
            byte[][] k = new byte[count][];
            for (int i = 0; i < count; i++) {
                r[i] = rids[order[i]];
                k[i] = keys[order[i]];
            }
            rids = r;
            keys = k;
            return this;
        }
    }
}
