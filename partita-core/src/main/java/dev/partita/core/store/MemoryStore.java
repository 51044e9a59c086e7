package dev.partita.core.store;

import java.util.ArrayDeque;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store for tests and the JUnit extension: no files, nothing survives {@link #close()}.
 *
 * <p>Multi-version so that snapshots cost a counter, not a copy: each key maps to a chain of versions (newest first),
 * each stamped with the sequence number of the batch that wrote it. A batch pushes its versions, then publishes its
 * sequence; a reader resolves every key at one sequence, so it sees a batch entirely or not at all without any lock.
 * Versions that no open snapshot can see any more are pruned by the writer (and by the last snapshot to close).
 *
 * <p>Writes are serialized by one lock: a batch is a handful of in-memory map updates, far shorter than the work the
 * engine does around it, and the engine serializes writes per partition anyway.
 */
public final class MemoryStore implements Store {

    /** One version of a key; {@code value == null} is a tombstone. Immutable, so readers never need a lock. */
    record Version(long seq, byte[] value, Version older) {
        byte[] valueAt(long readSeq) {
            for (Version v = this; v != null; v = v.older) {
                if (v.seq <= readSeq) {
                    return v.value;
                }
            }
            return null;
        }
    }

    /**
     * The version chain of one key, shared by the key order and the hash index: an update of an existing key only
     * swaps the head (one hash lookup); only new keys are added to the key order.
     */
    static final class Slot {
        final byte[] key;
        volatile Version head;

        Slot(byte[] key, Version head) {
            this.key = key;
            this.head = head;
        }

        byte[] valueAt(long readSeq) {
            Version h = head;
            return h == null ? null : h.valueAt(readSeq);
        }
    }

    /** A key that may hold versions nobody needs once every snapshot has moved past {@code seq}. */
    private record Garbage(Slot slot, long seq) {
    }

    private static final byte[] EMPTY = new byte[0];

    /** The version chains in key order, for scans. */
    private final KeyOrder order = new KeyOrder();
    /**
     * The same version chains by key hash: point reads (the hot path) cost one hash probe instead of a descent of
     * byte-array comparisons over keys that share long prefixes. Updated with {@link #order} under the write lock.
     */
    private final SlotIndex index = new SlotIndex();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ArrayDeque<Garbage> garbage = new ArrayDeque<>(); // guarded by writeLock, in sequence order
    private final TreeMap<Long, Integer> openSnapshots = new TreeMap<>(); // guarded by itself: sequence -> count
    private volatile long visibleSeq;
    private volatile boolean closed;

    @Override
    public byte[] get(byte[] key) {
        checkOpen();
        // Chain first, sequence second: every version at or below a sequence read afterwards is committed, and pruning
        // only drops versions hidden behind a newer one at or below an already published sequence. No lock needed.
        Slot slot = index.get(key, SlotIndex.hash(key));
        if (slot == null) {
            return null;
        }
        Version head = slot.head;
        return head == null ? null : head.valueAt(visibleSeq);
    }

    /** {@link #get} reads a hash index and a version chain in memory, without a lock. */
    @Override
    public boolean readsNeverBlock() {
        return true;
    }

    @Override
    public Cursor scan(byte[] fromInclusive, byte[] toExclusive) {
        MemorySnapshot snapshot = openSnapshot();
        return snapshot.scan(fromInclusive, toExclusive, false, snapshot);
    }

    @Override
    public Cursor scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        MemorySnapshot snapshot = openSnapshot();
        return snapshot.scan(fromInclusive, toExclusive, true, snapshot);
    }

    @Override
    public void apply(WriteBatch batch) {
        checkOpen();
        if (batch.isEmpty()) {
            return;
        }
        // Copy outside the lock: the caller may reuse its arrays, and a mutated key would corrupt the key order.
        int n = batch.size();
        byte[][] keys = new byte[n][];
        int[] hashes = new int[n];
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            WriteBatch.Op op = batch.ops().get(i);
            keys[i] = op.key().clone();
            hashes[i] = SlotIndex.hash(keys[i]); // hashed outside the lock too
            values[i] = op.isDelete() ? null : copy(op.value());
        }
        byte[][] newKeys = new byte[n][];
        Slot[] newSlots = new Slot[n];
        int added = 0;
        writeLock.lock();
        try {
            checkOpen();
            long seq = visibleSeq + 1;
            for (int i = 0; i < n; i++) {
                Slot slot;
                if (values[i] == null) {
                    slot = index.get(keys[i], hashes[i]);
                    if (slot == null || slot.head == null) {
                        continue; // deleting an absent key changes nothing any reader could see
                    }
                } else {
                    // One probe of the index for a new key (most keys of a write are new), not a get and a put.
                    Slot fresh = new Slot(keys[i], new Version(seq, values[i], null));
                    slot = index.putIfAbsent(hashes[i], fresh);
                    if (slot == null) {
                        newKeys[added] = keys[i];
                        newSlots[added++] = fresh;
                        continue;
                    }
                }
                // Readers at earlier sequences skip the new head: it is invisible until visibleSeq reaches seq.
                slot.head = new Version(seq, values[i], slot.head);
                garbage.addLast(new Garbage(slot, seq));
            }
            order.addAll(newKeys, newSlots, added); // before the commit point: a scan at seq must find them
            visibleSeq = seq; // the commit point
            collectGarbage();
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * A copy of a value; every empty one (an index entry's: most of a document's keys) is one shared array, since an
     * empty array cannot be changed and a million copies of it are a million objects for the collector to move.
     */
    private static byte[] copy(byte[] value) {
        return value.length == 0 ? EMPTY : value.clone();
    }

    @Override
    public Snapshot snapshot() {
        return openSnapshot();
    }

    private MemorySnapshot openSnapshot() {
        checkOpen();
        synchronized (openSnapshots) {
            // Read the sequence under the same lock the pruner uses to find the horizon, so a new snapshot can never
            // start below a horizon that is already being pruned to.
            long seq = visibleSeq;
            openSnapshots.merge(seq, 1, Integer::sum);
            return new MemorySnapshot(this, seq);
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    void release(long seq) {
        boolean wasOldest;
        synchronized (openSnapshots) {
            wasOldest = openSnapshots.firstKey() == seq;
            openSnapshots.computeIfPresent(seq, (s, c) -> c == 1 ? null : c - 1);
        }
        // The oldest snapshot holds back pruning; if no write is running, collect now rather than at the next write.
        if (wasOldest && !closed && writeLock.tryLock()) {
            try {
                collectGarbage();
            } finally {
                writeLock.unlock();
            }
        }
    }

    byte[] get(byte[] key, long seq) {
        checkOpen();
        Slot slot = index.get(key, SlotIndex.hash(key));
        return slot == null ? null : slot.valueAt(seq);
    }

    KeyRange entries(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        checkOpen();
        return order.range(fromInclusive, toExclusive, descending);
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
    }

    /** Versions held for all keys, tombstones included: lets tests prove that closed snapshots free memory. */
    long versionCount() {
        long count = 0;
        for (KeyRange range = order.range(null, null, false); range.next(); ) {
            for (Version v = range.slot().head; v != null; v = v.older) {
                count++;
            }
        }
        return count;
    }

    int openSnapshotCount() {
        synchronized (openSnapshots) {
            return openSnapshots.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /** Runs under the write lock. */
    private void collectGarbage() {
        long horizon;
        synchronized (openSnapshots) {
            horizon = openSnapshots.isEmpty() ? visibleSeq : Math.min(openSnapshots.firstKey(), visibleSeq);
        }
        while (!garbage.isEmpty() && garbage.peekFirst().seq() <= horizon) {
            Garbage g = garbage.pollFirst();
            prune(g.slot(), horizon);
        }
    }

    /**
     * Keeps the versions newer than {@code horizon} plus the newest one at or below it (what the oldest reader sees);
     * a tombstone in that last place is dropped too, since "no version" reads the same as "deleted".
     */
    private void prune(Slot slot, long horizon) {
        Version head = slot.head; // null: the slot died in an earlier prune (a new write of the key has a new slot)
        if (head == null) {
            return;
        }
        Version floor = head;
        int newer = 0;
        while (floor != null && floor.seq() > horizon) {
            floor = floor.older();
            newer++;
        }
        if (floor == null || (floor.older() == null && floor.value() != null)) {
            return;
        }
        Version kept = floor.value() == null ? null : new Version(floor.seq(), floor.value(), null);
        Version[] chain = new Version[newer];
        Version v = head;
        for (int i = 0; i < newer; i++, v = v.older()) {
            chain[i] = v;
        }
        for (int i = newer - 1; i >= 0; i--) {
            kept = new Version(chain[i].seq(), chain[i].value(), kept);
        }
        slot.head = kept;
        if (kept == null) {
            index.died(); // dead for good: the key order drops it at its next merge, the index at a rewrite or resize
            order.died();
        }
    }
}
