package dev.partita.core.query;

import dev.partita.core.item.Visibility;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;

/** Every item of a key interval, in key order: the plan when no indexed predicate narrows the query. */
final class ScanSource extends ItemSource {
    private final Cursor cursor;

    ScanSource(Snapshot snapshot, byte[] from, byte[] to, Visibility visible) {
        super(visible);
        this.cursor = snapshot.scan(from, to);
    }

    @Override
    byte[] advance() {
        if (!cursor.next()) {
            return END;
        }
        position = cursor.key();
        itemKey = position;
        return cursor.value();
    }

    @Override
    public void close() {
        cursor.close();
    }
}
