package dev.partita.core.query;

import dev.partita.core.index.IndexCursor;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Snapshot;
import java.util.Iterator;
import java.util.TreeSet;

/**
 * The candidates of an index lookup in item-key order, for queries evaluated whole (ORDER BY, aggregates, GROUP BY,
 * DISTINCT): the same input order as a scan, so ties come out the same way whether or not the index is used. The
 * candidates are gathered before any item is read, so that walk is bounded by the deadline itself: a set cut short
 * would not be an item-key prefix of the candidates, so past the deadline it is a 408.
 */
final class KeySetSource extends ItemSource {
    /** Entries walked between two reads of the clock, less one (a mask). */
    private static final int CHECK_EVERY = 1023;

    private final Snapshot snapshot;
    private final Iterator<byte[]> keys;

    private KeySetSource(Snapshot snapshot, TreeSet<byte[]> keys, long entries, Visibility visible) {
        super(visible);
        this.snapshot = snapshot;
        this.keys = keys.iterator();
        this.entriesRead = entries;
    }

    static KeySetSource of(Snapshot snapshot, int container, IndexLookup lookup, QueryExecutor.Bounds bounds,
            Visibility visible, Deadline deadline) {
        TreeSet<byte[]> keys = new TreeSet<>(Bytes.COMPARATOR);
        long entries = 0;
        long walked = 0;
        for (byte[][] r : lookup.ranges()) {
            try (IndexCursor cursor = lookup.open(snapshot, r[0], r[1]).until(deadline)) {
                while (cursor.next()) {
                    if ((++walked & CHECK_EVERY) == 0 && deadline.passed()) {
                        throw QueryErrors.timedOut();
                    }
                    byte[] itemKey = IndexTerms.itemKey(container, cursor.key());
                    if (bounds.contains(itemKey)) {
                        entries++;
                        keys.add(itemKey);
                    }
                }
                if (cursor.stopped()) {
                    throw QueryErrors.timedOut();
                }
                entries += cursor.termsExamined();
            }
        }
        return new KeySetSource(snapshot, keys, entries, visible);
    }

    /** Given item keys (an approximate vector search's candidates), read in key order. */
    static KeySetSource ofKeys(Snapshot snapshot, java.util.Collection<byte[]> itemKeys, long entries,
            Visibility visible) {
        TreeSet<byte[]> keys = new TreeSet<>(Bytes.COMPARATOR);
        keys.addAll(itemKeys);
        return new KeySetSource(snapshot, keys, entries, visible);
    }

    @Override
    byte[] advance() {
        if (!keys.hasNext()) {
            return END;
        }
        position = keys.next();
        itemKey = position;
        return snapshot.get(position);
    }
}
