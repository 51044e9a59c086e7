package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.WriteBatch;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The writes of one operation or one transactional batch, staged in a {@link WriteBatch} and visible to the
 * operation's own later reads, then applied to the store at once.
 */
final class Txn {
    private static final byte[] DELETED = new byte[0];

    private final Store store;
    private final WriteBatch batch = new WriteBatch();
    private final Map<ByteBuffer, byte[]> overlay = new HashMap<>();

    Txn(Store store) {
        this.store = store;
    }

    byte[] get(byte[] key) {
        byte[] v = overlay.get(ByteBuffer.wrap(key));
        if (v != null) {
            return v == DELETED ? null : v;
        }
        return store.get(key);
    }

    /** The entries of {@code [from, to)} as this transaction sees them: the store's, with its own writes applied. */
    NavigableMap<byte[], byte[]> scan(byte[] from, byte[] to) {
        NavigableMap<byte[], byte[]> out = new TreeMap<>(Bytes.COMPARATOR);
        try (Cursor cur = store.scan(from, to)) {
            while (cur.next()) {
                out.put(cur.key(), cur.value());
            }
        }
        for (Map.Entry<ByteBuffer, byte[]> e : overlay.entrySet()) {
            byte[] key = e.getKey().array();
            if (Bytes.compare(key, from) >= 0 && Bytes.compare(key, to) < 0) {
                if (e.getValue() == DELETED) {
                    out.remove(key);
                } else {
                    out.put(key, e.getValue());
                }
            }
        }
        return out;
    }

    void put(byte[] key, byte[] value) {
        overlay.put(ByteBuffer.wrap(key), value);
        batch.put(key, value);
    }

    void delete(byte[] key) {
        overlay.put(ByteBuffer.wrap(key), DELETED);
        batch.delete(key);
    }

    void commit() {
        if (!batch.isEmpty()) {
            store.apply(batch);
        }
    }
}
