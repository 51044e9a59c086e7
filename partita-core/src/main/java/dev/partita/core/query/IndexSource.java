package dev.partita.core.query;

import dev.partita.core.index.IndexCursor;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.item.Visibility;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Snapshot;
import java.util.List;

/**
 * The candidates of an index lookup in index order (value, then EPK, then id), each item read by its key from the
 * same snapshot. Entries of items outside the scope are passed over and not counted: the service keeps one index per
 * physical partition, so they are not part of this partition's lookup. A continuation resumes at an entry key, which
 * orders every entry before or after it, so pages neither lose nor repeat candidates.
 *
 * <p>Walks that load no item (a string function's failing terms, other partitions' entries) are bounded by the
 * deadline too: past it the read ends between items ({@link ItemSource#BETWEEN}) at an entry after the one it
 * resumed at, which the next page resumes at.
 */
final class IndexSource extends ItemSource {
    private final Snapshot snapshot;
    private final int container;
    private final IndexLookup lookup;
    private final List<byte[][]> ranges;
    private final byte[] resume;
    private final QueryExecutor.Bounds bounds;
    private int range = -1;
    private IndexCursor cursor;
    /** Terms the closed cursors examined ({@link IndexCursor#termsExamined}), and the entries in scope read. */
    private long termsExamined;
    private long entries;

    IndexSource(Snapshot snapshot, int container, IndexLookup lookup, byte[] resume, QueryExecutor.Bounds bounds,
            Visibility visible) {
        super(visible);
        this.snapshot = snapshot;
        this.container = container;
        this.lookup = lookup;
        this.ranges = lookup.ranges();
        this.resume = resume;
        this.bounds = bounds;
    }

    @Override
    byte[] advance() {
        while (true) {
            boolean more = cursor != null && cursor.next();
            if (cursor != null) {
                // the distinct terms a string function's cursor tested are read entries too
                entriesRead = entries + termsExamined + cursor.termsExamined();
            }
            if (!more) {
                if (cursor != null && cursor.stopped()) {
                    position = cursor.stoppedAt();
                    return BETWEEN;
                }
                if (!openNextRange()) {
                    return END;
                }
                continue;
            }
            byte[] itemKey = IndexTerms.itemKey(container, cursor.key());
            if (!bounds.contains(itemKey)) {
                if ((resume == null || Bytes.compare(cursor.key(), resume) > 0) && deadline().passed()) {
                    position = cursor.key();
                    return BETWEEN;
                }
                continue;
            }
            entries++;
            entriesRead++;
            position = cursor.key();
            this.itemKey = itemKey;
            return snapshot.get(itemKey);
        }
    }

    private boolean openNextRange() {
        if (cursor != null) {
            termsExamined += cursor.termsExamined();
            cursor.close();
            cursor = null;
        }
        while (++range < ranges.size()) {
            byte[] from = ranges.get(range)[0];
            byte[] to = ranges.get(range)[1];
            if (resume != null) {
                if (to != null && Bytes.compare(to, resume) <= 0) {
                    continue;
                }
                if (Bytes.compare(resume, from) > 0) {
                    from = resume;
                }
            }
            cursor = lookup.open(snapshot, from, to).until(deadline());
            return true;
        }
        return false;
    }

    @Override
    public void close() {
        if (cursor != null) {
            cursor.close();
        }
    }
}
