package dev.partita.core.store;

import dev.partita.core.store.MemoryStore.Slot;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The {@link MemoryStore}'s slots by key, for point reads and for finding a written key's slot: an open-addressing
 * table (linear probing, at most half full) of key hashes in one {@code int[]} and slots in another.
 *
 * <p>Why not a {@code ConcurrentHashMap}: most keys a write touches are new, and a new key's probe there read the
 * first node of a random bin (a cache miss), locked it and allocated a node and a key wrapper; its resizes read every
 * node again. Here a new key's probe reads the hash array only (one cache line, usually), resizes read the arrays in
 * sequence, and an entry costs no object.
 *
 * <p>Changed only under the store's write lock. Readers take the current {@link Table} without a lock: an entry's slot
 * is written before its hash (release) and read after it (acquire); a resize fills a new table and then publishes it.
 * Entries are never removed: a dead slot ({@code head == null}) stays until its key is written again (the new slot
 * takes its place) or a resize drops it.
 */
final class SlotIndex {
    private static final VarHandle HASHES = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Slot[].class);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int MIN_CAPACITY = 16;

    /** {@code hashes[i] == 0}: an empty entry (stored hashes are never 0). */
    private record Table(int[] hashes, Slot[] slots) {
    }

    private volatile Table table = new Table(new int[MIN_CAPACITY], new Slot[MIN_CAPACITY]);
    private int used; // entries, dead ones included (guarded by the store's write lock)
    private int dead; // entries whose slot died (guarded by the store's write lock)

    /**
     * A mixing hash of 8 bytes at a time, in two lanes (one lane's multiply chain is latency-bound), never 0. Not
     * {@code Arrays.hashCode}: its polynomial collides in whole families of the store's keys (long shared prefixes,
     * short varying tails).
     */
    static int hash(byte[] b) {
        long h = b.length * 0x9E3779B97F4A7C15L;
        long g = ~h;
        int i = 0;
        for (; i + 16 <= b.length; i += 16) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(b, i) * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
            g = Long.rotateLeft(g ^ (long) LONGS.get(b, i + 8) * 0xC2B2AE3D27D4EB4FL, 29) * 0x9E3779B97F4A7C15L;
        }
        if (i + 8 <= b.length) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(b, i) * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
            i += 8;
        }
        for (; i < b.length; i++) {
            g = (g ^ (b[i] & 0xFF)) * 0x100000001B3L;
        }
        h ^= Long.rotateLeft(g, 17) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        int x = (int) h ^ (int) (h >>> 32);
        return x == 0 ? 1 : x;
    }

    /** The slot of {@code key} (alive or dead), or null; {@code hash == hash(key)}. Lock-free. */
    Slot get(byte[] key, int hash) {
        Table t = table;
        int mask = t.hashes.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int h = (int) HASHES.getAcquire(t.hashes, i);
            if (h == 0) {
                return null;
            }
            if (h == hash) {
                Slot s = (Slot) SLOTS.getAcquire(t.slots, i);
                if (Arrays.equals(s.key, key)) {
                    return s;
                }
            }
        }
    }

    /**
     * The live slot of {@code fresh.key}, or null after making {@code fresh} its slot (in place of a dead one, if any).
     * Under the store's write lock.
     */
    Slot putIfAbsent(int hash, Slot fresh) {
        Table t = table;
        if ((used + 1) * 2 > t.hashes.length) {
            t = resize(t);
        }
        int mask = t.hashes.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int h = t.hashes[i];
            if (h == 0) {
                t.slots[i] = fresh;
                HASHES.setRelease(t.hashes, i, hash); // publishes the slot to readers
                used++;
                return null;
            }
            if (h == hash) {
                Slot s = t.slots[i];
                if (Arrays.equals(s.key, fresh.key)) {
                    if (s.head != null) {
                        return s;
                    }
                    SLOTS.setRelease(t.slots, i, fresh); // the key written again after its slot died
                    dead--;
                    return null;
                }
            }
        }
    }

    /** Counts a slot that died (its entry stays until its key is written again or a resize). Under the write lock. */
    void died() {
        dead++;
    }

    /** A table for the live entries at most a quarter full, published once filled (under the write lock). */
    private Table resize(Table old) {
        int live = used - dead;
        int capacity = MIN_CAPACITY;
        while (capacity < 4L * (live + 1)) {
            capacity <<= 1;
        }
        Table t = new Table(new int[capacity], new Slot[capacity]);
        int mask = capacity - 1;
        for (int j = 0; j < old.hashes.length; j++) {
            int h = old.hashes[j];
            // without dead entries, no slot needs reading (each would be a cache miss)
            if (h == 0 || (dead > 0 && old.slots[j].head == null)) {
                continue;
            }
            int i = h & mask;
            while (t.hashes[i] != 0) {
                i = (i + 1) & mask;
            }
            t.hashes[i] = h;
            t.slots[i] = old.slots[j];
        }
        used = live;
        dead = 0;
        table = t;
        return t;
    }
}
