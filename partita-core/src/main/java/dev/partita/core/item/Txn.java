package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.WriteBatch;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The writes of one operation, one transactional batch or one partition's share of a bulk request, staged in a
 * {@link WriteBatch} and visible to the operation's own later reads, then applied to the store at once. A bulk
 * request's operations each start at a {@link #savepoint}, so that one that fails takes back only its own writes.
 */
final class Txn {
    private static final byte[] DELETED = new byte[0];

    private final Store store;
    private final WriteBatch batch = new WriteBatch();
    private final Map<Key, byte[]> overlay = new HashMap<>();
    /** The key of each write in {@link #batch}, in its order. */
    private final List<Key> staged = new ArrayList<>();
    /** Since the last savepoint: each key written with the value it had in the overlay before (null: none). */
    private List<Map.Entry<Key, byte[]>> undo;
    /** The batch's size at the last savepoint. */
    private int batchMark;

    Txn(Store store) {
        this.store = store;
    }

    /**
     * A key of the overlay, its hash computed once: a bulk request's transaction stages ~16 keys per item, long ones
     * with long shared prefixes, each hashed when staged and again when its last write is picked at commit
     * ({@code ByteBuffer}'s hash, a byte-at-a-time loop computed on every call, was ~7% of a bulk item's CPU).
     */
    private static final class Key {
        final byte[] bytes;
        private final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }
    }

    byte[] get(byte[] key) {
        byte[] v = overlay.get(new Key(key));
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
        for (Map.Entry<Key, byte[]> e : overlay.entrySet()) {
            byte[] key = e.getKey().bytes;
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
        batch.put(key, value);
        stage(key, value);
    }

    void delete(byte[] key) {
        batch.delete(key);
        stage(key, DELETED);
    }

    private void stage(byte[] key, byte[] value) {
        Key k = new Key(key);
        staged.add(k);
        byte[] before = overlay.put(k, value);
        if (undo != null) {
            undo.add(new AbstractMap.SimpleImmutableEntry<>(k, before));
        }
    }

    /** Marks where the next operation starts: {@link #rollback} takes back what is staged after it. */
    void savepoint() {
        undo = undo == null ? new ArrayList<>() : undo;
        undo.clear();
        batchMark = batch.size();
    }

    /** Takes back every write staged since the last {@link #savepoint}. */
    void rollback() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            Map.Entry<Key, byte[]> e = undo.get(i);
            if (e.getValue() == null) {
                overlay.remove(e.getKey());
            } else {
                overlay.put(e.getKey(), e.getValue());
            }
        }
        undo.clear();
        batch.ops().subList(batchMark, batch.size()).clear();
        staged.subList(batchMark, staged.size()).clear();
    }

    void commit() {
        if (!batch.isEmpty()) {
            store.apply(batch.size() > overlay.size() ? lastWrites() : batch);
        }
    }

    /**
     * The batch with only the last write of each key, in the order of those: the operations of a bulk request rewrite
     * the same records (their logical partition's size) once each, and the store need apply only the final value.
     */
    private WriteBatch lastWrites() {
        List<WriteBatch.Op> ops = batch.ops();
        Set<Key> seen = new HashSet<>(overlay.size() * 2);
        List<WriteBatch.Op> kept = new ArrayList<>(overlay.size());
        for (int i = ops.size() - 1; i >= 0; i--) {
            if (seen.add(staged.get(i))) {
                kept.add(ops.get(i));
            }
        }
        WriteBatch out = new WriteBatch();
        for (int i = kept.size() - 1; i >= 0; i--) {
            WriteBatch.Op op = kept.get(i);
            if (op.isDelete()) {
                out.delete(op.key());
            } else {
                out.put(op.key(), op.value());
            }
        }
        return out;
    }
}
