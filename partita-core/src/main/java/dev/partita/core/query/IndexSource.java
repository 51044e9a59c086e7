package dev.partita.core.query;

import dev.partita.core.index.IndexTerms;
import dev.partita.core.item.Visibility;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import java.util.List;

/**
 * The candidates of an index lookup in index order (value, then EPK, then id), each item read by its key from the
 * same snapshot. Entries of items outside the scope are passed over and not counted: the service keeps one index per
 * physical partition, so they are not part of this partition's lookup. A continuation resumes at an entry key, which
 * orders every entry before or after it, so pages neither lose nor repeat candidates.
 */
final class IndexSource extends ItemSource {
    private final Snapshot snapshot;
    private final int container;
    private final List<byte[][]> ranges;
    private final byte[] resume;
    private final QueryExecutor.Bounds bounds;
    private int range = -1;
    private Cursor cursor;

    IndexSource(Snapshot snapshot, int container, List<byte[][]> ranges, byte[] resume, QueryExecutor.Bounds bounds,
            Visibility visible) {
        super(visible);
        this.snapshot = snapshot;
        this.container = container;
        this.ranges = ranges;
        this.resume = resume;
        this.bounds = bounds;
    }

    @Override
    byte[] advance() {
        while (true) {
            if (cursor == null || !cursor.next()) {
                if (!openNextRange()) {
                    return END;
                }
                continue;
            }
            byte[] itemKey = IndexTerms.itemKey(container, cursor.key());
            if (!bounds.contains(itemKey)) {
                continue;
            }
            entriesRead++;
            position = cursor.key();
            this.itemKey = itemKey;
            return snapshot.get(itemKey);
        }
    }

    private boolean openNextRange() {
        if (cursor != null) {
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
            cursor = snapshot.scan(from, to);
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
