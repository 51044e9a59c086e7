package dev.partita.core.store;

import dev.partita.core.store.MemoryStore.Slot;
import java.util.Arrays;

/**
 * The {@link MemoryStore}'s keys in order, for scans (point reads use its hash index): sorted runs ({@link KeyRun}),
 * newest (smallest) first. A batch's new keys, sorted, become a run, merged at once with the runs that are not larger
 * than it, so run sizes grow geometrically (like a binary counter: at most log2 of the key count runs) and a key is
 * merged O(log n) times, by sequential passes that compare offset-value codes rather than keys.
 *
 * <p>Why not one skip list (or tree) of every key: a document writes ~16 new keys (item, change-log record, index
 * entries) at random places among millions that share long prefixes, and each insert descends ~20 levels of cache
 * misses and long comparisons; that was most of the server's CPU per write. Why not a small skip list of recent keys
 * before the runs (session 6): its inserts were still ~13% of a write, more than sorting the batch's few keys.
 *
 * <p>Keys are never removed: a slot whose chain was pruned to nothing ({@code head == null}) is dead for good (the
 * store makes a new slot if the key is written again), scans skip it (it has no value at any sequence) and the next
 * merge drops it. A key can therefore appear in two runs, but only one of its slots is alive.
 *
 * <p>Changed only under the store's write lock; readers take the current array of runs (immutable, like the runs)
 * without a lock.
 */
final class KeyOrder {
    private volatile KeyRun[] runs = new KeyRun[0];
    /** Slots that died so far (guarded by the store's write lock): a merge of runs built since skips the check. */
    private long deaths;

    /** Adds {@code n} distinct keys that have no live slot, in any order (under the store's write lock). */
    void addAll(byte[][] keys, Slot[] slots, int n) {
        if (n == 0) {
            return;
        }
        KeyRun run = KeyRun.sorted(keys, slots, n, deaths);
        KeyRun[] rs = runs;
        int older = 0;
        while (older < rs.length && rs[older].size() <= run.size()) {
            run = KeyRun.merge(rs[older], run, deaths);
            older++;
        }
        KeyRun[] next = new KeyRun[rs.length - older + 1];
        next[0] = run;
        System.arraycopy(rs, older, next, 1, rs.length - older);
        runs = next;
    }

    /** Counts a slot whose chain was pruned to nothing (under the store's write lock). */
    void died() {
        deaths++;
    }

    /**
     * The live and dead slots of {@code [fromInclusive, toExclusive)} (null: unbounded), in order. Only the bound the
     * scan starts from is searched in each run; the other one ends the merged range, so a short scan pays one binary
     * search per run, not two (the searches of the large runs are cache misses).
     */
    KeyRange range(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        KeyRun[] rs = runs;
        if (fromInclusive != null && toExclusive != null && Bytes.compare(fromInclusive, toExclusive) >= 0) {
            return new KeyRange(new KeyRun[0], new int[0], new int[0], descending, null);
        }
        KeyRun[] sources = new KeyRun[rs.length];
        int[] lo = new int[rs.length];
        int[] hi = new int[rs.length];
        int n = 0;
        for (KeyRun run : rs) {
            int from = descending || fromInclusive == null ? 0 : run.lowerBound(fromInclusive);
            int to = !descending || toExclusive == null ? run.size() : run.lowerBound(toExclusive);
            if (from < to) {
                sources[n] = run;
                lo[n] = from;
                hi[n++] = to;
            }
        }
        byte[] stop = descending ? fromInclusive : toExclusive;
        // copied: the range keeps it, and the caller may reuse its array once scan returns
        return new KeyRange(Arrays.copyOf(sources, n), lo, hi, descending, stop == null ? null : stop.clone());
    }
}
