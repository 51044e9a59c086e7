package dev.partita.core.item;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The LSNs of one container: one counter that the writers of all its physical partitions draw from while they stage,
 * and the <em>committed watermark</em>, the largest LSN at or below which every LSN handed out is committed or given
 * up. Writers of different partitions commit in any order, so LSN 11 may be committed while LSN 10 is still being
 * staged; the watermark stays at 9 until 10 is committed too.
 *
 * <p>The watermark is what the container's LSN record ({@link StoreKeys#containerLsn}) holds, written in the same
 * store batch as the changes that move it, so every reader of a snapshot (the change feed's head, the vector index's
 * replay) finds all records up to it in that snapshot and never skips one committed later. The record also holds the
 * largest LSN committed, so that a restart never hands out an LSN twice. Commits that write the record are serialized
 * (a short section around the store write, which the stores serialize anyway), so the record never goes backwards.
 */
public final class LsnSequence {
    private final Store store;
    private final byte[] recordKey;
    /** Serializes the store writes of the record. */
    private final ReentrantLock commitLock = new ReentrantLock();
    /** The first LSN of every open transaction that took one. Guarded by {@code this}. */
    private final TreeSet<Long> open = new TreeSet<>();
    /** The last LSN handed out. Guarded by {@code this}. */
    private long last;
    /** The watermark and the largest committed LSN as the record holds them. Guarded by {@link #commitLock}. */
    private volatile long recordedWatermark;
    private long recordedMax;

    private LsnSequence(Store store, int containerId, long watermark, long max) {
        this.store = store;
        this.recordKey = StoreKeys.containerLsn(containerId);
        this.last = max;
        this.recordedWatermark = watermark;
        this.recordedMax = max;
    }

    /**
     * The container's sequence as its record holds it. After a crash the record may show committed LSNs above the
     * watermark (their batches committed while a lower LSN was still being staged, and that one was lost): nothing is
     * open any more, so the watermark moves up to them at once.
     */
    public static LsnSequence load(Store store, int containerId) {
        byte[] record = store.get(StoreKeys.containerLsn(containerId));
        long watermark = Bytes.longValue(record);
        // a record from before the watermark was kept holds one LSN: the last committed, everything below committed
        long max = record != null && record.length >= 16 ? Bytes.getLong(record, 8) : watermark;
        LsnSequence lsns = new LsnSequence(store, containerId, watermark, max);
        if (max > watermark) {
            lsns.commitLock.lock();
            try {
                lsns.writeRecord(max, max);
            } finally {
                lsns.commitLock.unlock();
            }
        }
        return lsns;
    }

    /** The last LSN handed out (for session tokens of reads). */
    public synchronized long last() {
        return last;
    }

    /** The committed watermark: every LSN at or below it is committed or was given up. */
    public long committed() {
        return recordedWatermark;
    }

    /** A new transaction's claim on LSNs; it takes them with {@link Claim#next()}. */
    Claim claim() {
        return new Claim();
    }

    /** The LSNs one transaction took, in order (not necessarily adjacent: other partitions draw in between). */
    final class Claim {
        private long first;
        private long lastTaken;
        /** Whether another transaction took an LSN between two of this one's. */
        private boolean interleaved;
        private boolean closed;

        long next() {
            synchronized (LsnSequence.this) {
                long lsn = ++last;
                if (first == 0) {
                    first = lsn;
                    open.add(lsn);
                } else if (lsn != lastTaken + 1) {
                    interleaved = true;
                }
                lastTaken = lsn;
                return lsn;
            }
        }

        /**
         * Commits {@code txn} with the record of the watermark it moves, then closes the claim. The watermark counts
         * this transaction's LSNs (they commit in this batch) and stops below the first LSN of any other open one.
         */
        void commit(Txn txn) {
            commitLock.lock();
            try {
                long watermark;
                synchronized (LsnSequence.this) {
                    watermark = watermarkWithout(first);
                }
                long max = Math.max(recordedMax, lastTaken);
                if (watermark > recordedWatermark || max > recordedMax) {
                    txn.put(recordKey, encode(Math.max(watermark, recordedWatermark), max));
                }
                txn.commit();
                recordedWatermark = Math.max(watermark, recordedWatermark);
                recordedMax = max;
            } finally {
                close(false);
                commitLock.unlock();
            }
        }

        /**
         * Gives up the claim of a transaction that did not commit: its LSNs go back if nobody took one since its
         * first, else they stay a gap. A watermark it held back moves on (recorded on its own).
         */
        void abandon() {
            if (closed || first == 0) {
                closed = true;
                return;
            }
            commitLock.lock();
            try {
                close(true);
                long watermark;
                synchronized (LsnSequence.this) {
                    watermark = watermarkWithout(0);
                }
                if (watermark > recordedWatermark) {
                    writeRecord(watermark, recordedMax);
                }
            } finally {
                commitLock.unlock();
            }
        }

        private void close(boolean giveBack) {
            if (closed) {
                return;
            }
            closed = true;
            if (first == 0) {
                return;
            }
            synchronized (LsnSequence.this) {
                open.remove(first);
                if (giveBack && !interleaved && last == lastTaken) {
                    last = first - 1;
                }
            }
        }
    }

    /** The watermark if the open transaction that took {@code first} (0: none) were committed. Holds the monitor. */
    private long watermarkWithout(long first) {
        for (Long lowest : open) {
            if (lowest != first) {
                return lowest - 1;
            }
        }
        return last;
    }

    /** Writes the record on its own (at load, after an abandoned claim); under the commit lock. */
    private void writeRecord(long watermark, long max) {
        store.apply(new WriteBatch().put(recordKey, encode(watermark, max)));
        recordedWatermark = watermark;
        recordedMax = max;
    }

    private static byte[] encode(long watermark, long max) {
        byte[] b = new byte[16];
        Bytes.putLong(b, 0, watermark);
        Bytes.putLong(b, 8, max);
        return b;
    }
}
