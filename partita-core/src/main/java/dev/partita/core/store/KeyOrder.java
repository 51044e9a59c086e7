package dev.partita.core.store;

import dev.partita.core.store.MemoryStore.Slot;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The {@link MemoryStore}'s keys in order, for scans (point reads use its hash index). New keys go to a small skip
 * list; when it holds {@code recentLimit} keys it is frozen into a sorted array (a run) and merged with the runs that
 * are not larger than it, so run sizes grow geometrically and a key is merged O(log n) times, by sequential passes.
 *
 * <p>Why not one big skip list: a document writes ~16 new keys (item, change-log record, index entries) at random
 * places among millions that share long prefixes, and each insert into a skip list of millions descends ~20 levels of
 * cache misses and long comparisons; that was most of the server's CPU per write. An insert into the small list stays
 * in cache.
 *
 * <p>Keys are never removed: a slot whose chain was pruned to nothing ({@code head == null}) is dead for good (the
 * store makes a new slot if the key is written again), scans skip it (it has no value at any sequence) and the next
 * merge drops it. A key can therefore appear in two places, but only one of its slots is alive.
 *
 * <p>Changed only under the store's write lock; readers take the current {@link State} (immutable runs and the skip
 * list, which a freeze leaves untouched) without a lock.
 */
final class KeyOrder {

    /**
     * Keys in order with their slots; never changed once built. {@code deaths}: the store's count of dead slots when
     * it was built (all its slots were alive then).
     */
    private record Run(byte[][] keys, Slot[] slots, long deaths) {
        int size() {
            return keys.length;
        }

        /** The first index whose key is at least {@code key}. */
        int lowerBound(byte[] key) {
            int lo = 0;
            int hi = keys.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (Bytes.compare(keys[mid], key) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** The skip list of recent keys and the runs, newest (smallest) first. */
    private record State(ConcurrentSkipListMap<byte[], Slot> recent, Run[] runs) {
    }

    private final int recentLimit;
    private volatile State state = new State(new ConcurrentSkipListMap<>(Bytes.COMPARATOR), new Run[0]);
    private int recentAdds; // guarded by the store's write lock
    /** Slots that died so far (guarded by the store's write lock): a merge of runs built since skips the check. */
    private long deaths;

    KeyOrder(int recentLimit) {
        if (recentLimit < 1) {
            throw new IllegalArgumentException("recentLimit must be positive");
        }
        this.recentLimit = recentLimit;
    }

    /** Adds a key that has no live slot (under the store's write lock). */
    void add(byte[] key, Slot slot) {
        state.recent().put(key, slot);
        if (++recentAdds >= recentLimit) {
            freeze();
        }
    }

    /** Counts a slot whose chain was pruned to nothing (under the store's write lock). */
    void died() {
        deaths++;
    }

    /** The live and dead slots of {@code [fromInclusive, toExclusive)} (null: unbounded), in order. */
    Iterator<Map.Entry<byte[], Slot>> range(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        State s = state;
        if (fromInclusive != null && toExclusive != null && Bytes.compare(fromInclusive, toExclusive) >= 0) {
            return Collections.emptyIterator();
        }
        List<Iterator<Map.Entry<byte[], Slot>>> sources = new ArrayList<>(s.runs().length + 1);
        NavigableMap<byte[], Slot> recent = s.recent();
        // The views keep their bounds by reference, and the caller may reuse its arrays once scan returns.
        if (fromInclusive != null) {
            recent = recent.tailMap(fromInclusive.clone(), true);
        }
        if (toExclusive != null) {
            recent = recent.headMap(toExclusive.clone(), false);
        }
        sources.add((descending ? recent.descendingMap() : recent).entrySet().iterator());
        for (Run run : s.runs()) {
            int lo = fromInclusive == null ? 0 : run.lowerBound(fromInclusive);
            int hi = toExclusive == null ? run.size() : run.lowerBound(toExclusive);
            if (lo < hi) {
                sources.add(new RunIterator(run, lo, hi, descending));
            }
        }
        return sources.size() == 1 ? sources.get(0) : new Merged(sources, descending);
    }

    private void freeze() {
        State s = state;
        Run run = fromRecent(s.recent());
        int older = 0;
        while (older < s.runs().length && s.runs()[older].size() <= run.size()) {
            run = merge(s.runs()[older], run);
            older++;
        }
        Run[] runs = new Run[s.runs().length - older + 1];
        runs[0] = run;
        System.arraycopy(s.runs(), older, runs, 1, s.runs().length - older);
        state = new State(new ConcurrentSkipListMap<>(Bytes.COMPARATOR), runs);
        recentAdds = 0;
    }

    private Run fromRecent(ConcurrentSkipListMap<byte[], Slot> recent) {
        List<byte[]> keys = new ArrayList<>(recent.size());
        List<Slot> slots = new ArrayList<>(recent.size());
        for (Map.Entry<byte[], Slot> e : recent.entrySet()) {
            if (e.getValue().head != null) {
                keys.add(e.getKey());
                slots.add(e.getValue());
            }
        }
        return new Run(keys.toArray(new byte[0][]), slots.toArray(new Slot[0]), deaths);
    }

    /**
     * One run of the live slots of both; of a key in both, the live slot (at most one is). When no slot died since
     * the older run was built, every slot of both is alive and no key is in both: the merge then reads no slot (a
     * cache miss each).
     */
    private Run merge(Run older, Run newer) {
        boolean allAlive = older.deaths() == deaths; // the newer run is not older than the older one
        byte[][] keys = new byte[older.size() + newer.size()][];
        Slot[] slots = new Slot[keys.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < older.size() || j < newer.size()) {
            int c = i == older.size() ? 1 : j == newer.size() ? -1 : Bytes.compare(older.keys[i], newer.keys[j]);
            Slot slot;
            byte[] key;
            if (c < 0) {
                key = older.keys[i];
                slot = older.slots[i++];
            } else if (c > 0) {
                key = newer.keys[j];
                slot = newer.slots[j++];
            } else {
                key = newer.keys[j];
                slot = newer.slots[j++].head != null ? newer.slots[j - 1] : older.slots[i];
                i++;
            }
            if (allAlive || slot.head != null) {
                keys[n] = key;
                slots[n++] = slot;
            }
        }
        return new Run(n == keys.length ? keys : Arrays.copyOf(keys, n), n == slots.length ? slots
                : Arrays.copyOf(slots, n), deaths);
    }

    /** The entries {@code [lo, hi)} of a run, in either direction. */
    private static final class RunIterator implements Iterator<Map.Entry<byte[], Slot>> {
        private final Run run;
        private final int lo;
        private final int hi;
        private final boolean descending;
        private int next;

        RunIterator(Run run, int lo, int hi, boolean descending) {
            this.run = run;
            this.lo = lo;
            this.hi = hi;
            this.descending = descending;
            this.next = descending ? hi - 1 : lo;
        }

        @Override
        public boolean hasNext() {
            return descending ? next >= lo : next < hi;
        }

        @Override
        public Map.Entry<byte[], Slot> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            int at = next;
            next += descending ? -1 : 1;
            return new AbstractMap.SimpleImmutableEntry<>(run.keys[at], run.slots[at]);
        }
    }

    /** The sources merged into one order (a key in several sources comes once per source; the cursor skips the dead). */
    private static final class Merged implements Iterator<Map.Entry<byte[], Slot>> {
        private final List<Iterator<Map.Entry<byte[], Slot>>> sources;
        private final Map.Entry<byte[], Slot>[] heads;
        private final boolean descending;

        @SuppressWarnings("unchecked")
        Merged(List<Iterator<Map.Entry<byte[], Slot>>> sources, boolean descending) {
            this.sources = sources;
            this.descending = descending;
            this.heads = new Map.Entry[sources.size()];
            for (int i = 0; i < heads.length; i++) {
                heads[i] = sources.get(i).hasNext() ? sources.get(i).next() : null;
            }
        }

        @Override
        public boolean hasNext() {
            for (Map.Entry<byte[], Slot> h : heads) {
                if (h != null) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Map.Entry<byte[], Slot> next() {
            int best = -1;
            for (int i = 0; i < heads.length; i++) {
                if (heads[i] != null && (best < 0 || before(heads[i].getKey(), heads[best].getKey()))) {
                    best = i;
                }
            }
            if (best < 0) {
                throw new NoSuchElementException();
            }
            Map.Entry<byte[], Slot> e = heads[best];
            Iterator<Map.Entry<byte[], Slot>> source = sources.get(best);
            heads[best] = source.hasNext() ? source.next() : null;
            return e;
        }

        private boolean before(byte[] a, byte[] b) {
            int c = Bytes.compare(a, b);
            return descending ? c > 0 : c < 0;
        }
    }
}
