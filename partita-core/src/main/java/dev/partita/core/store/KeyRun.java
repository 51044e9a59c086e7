package dev.partita.core.store;

import dev.partita.core.store.MemoryStore.Slot;
import java.util.Arrays;

/**
 * Keys in order with their slots, never changed once built: one level of the {@link KeyOrder}. {@code codes[i]} is the
 * {@link KeyCodes offset-value code} of {@code keys[i]} relative to {@code keys[i - 1]} (the first: to the empty key),
 * so a merge compares longs read in sequence instead of keys scattered over the heap. {@code deaths}: the store's
 * count of dead slots when the run was built (all its slots were alive then).
 */
final class KeyRun {
    static final KeyRun EMPTY = new KeyRun(new byte[0][], new Slot[0], new long[0], 0);

    final byte[][] keys;
    final Slot[] slots;
    final long[] codes;
    final long deaths;

    private KeyRun(byte[][] keys, Slot[] slots, long[] codes, long deaths) {
        this.keys = keys;
        this.slots = slots;
        this.codes = codes;
        this.deaths = deaths;
    }

    int size() {
        return keys.length;
    }

    /** A run of {@code n} distinct new keys in any order (a batch's), all alive. */
    static KeyRun sorted(byte[][] keys, Slot[] slots, int n, long deaths) {
        int[] order = KeySort.order(keys, n);
        byte[][] k = new byte[n][];
        Slot[] s = new Slot[n];
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = keys[order[i]];
            s[i] = slots[order[i]];
            c[i] = KeyCodes.code(i == 0 ? null : k[i - 1], k[i]);
        }
        return new KeyRun(k, s, c, deaths);
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

    /**
     * One run of the live slots of both; of a key in both, the live slot (at most one is). When no slot died since the
     * older run was built ({@code deaths} is the store's count now), every slot of both is alive and no key is in
     * both: the merge then reads no slot, and reads keys only where the codes tie.
     */
    static KeyRun merge(KeyRun older, KeyRun newer, long deaths) {
        return older.deaths == deaths ? mergeAlive(older, newer, deaths)
                : new Merge(older, newer).run(deaths);
    }

    /**
     * {@link Merge} when every slot is alive (the common case): no key is in both and none is dropped, so the loop
     * keeps everything in locals and takes one key per step.
     */
    private static KeyRun mergeAlive(KeyRun a, KeyRun b, long deaths) {
        int na = a.size();
        int nb = b.size();
        byte[][] keys = new byte[na + nb][];
        Slot[] slots = new Slot[na + nb];
        long[] codes = new long[na + nb];
        int i = 0;
        int j = 0;
        int n = 0;
        long ca = na > 0 ? a.codes[0] : 0;
        long cb = nb > 0 ? b.codes[0] : 0;
        while (i < na && j < nb) {
            int c = KeyCodes.compare(ca, cb);
            if (c == 0) {
                byte[] ka = a.keys[i];
                byte[] kb = b.keys[j];
                c = Bytes.compare(ka, kb); // never 0: no key is in both
                if (c < 0) {
                    cb = KeyCodes.code(ka, kb); // the loser, relative to the new base
                } else {
                    ca = KeyCodes.code(kb, ka);
                }
            }
            if (c < 0) {
                keys[n] = a.keys[i];
                slots[n] = a.slots[i];
                codes[n++] = ca;
                ca = ++i < na ? a.codes[i] : 0;
            } else {
                keys[n] = b.keys[j];
                slots[n] = b.slots[j];
                codes[n++] = cb;
                cb = ++j < nb ? b.codes[j] : 0;
            }
        }
        KeyRun rest = i < na ? a : b;
        int from = i < na ? i : j;
        int len = rest.size() - from;
        if (len > 0) {
            System.arraycopy(rest.keys, from, keys, n, len);
            System.arraycopy(rest.slots, from, slots, n, len);
            System.arraycopy(rest.codes, from, codes, n, len);
            codes[n] = i < na ? ca : cb;
        }
        return new KeyRun(keys, slots, codes, deaths);
    }

    /**
     * The state of a merge that may meet dead slots (dropped) and a key in both runs (the live slot kept): both heads'
     * codes are relative to the last key taken (the base).
     */
    private static final class Merge {
        private final KeyRun a;
        private final KeyRun b;
        private final byte[][] keys;
        private final Slot[] slots;
        private final long[] codes;
        private int n;
        private byte[] lastKept;
        private boolean recode; // a dropped key was the base: the next kept key's code must be made again

        Merge(KeyRun older, KeyRun newer) {
            this.a = older;
            this.b = newer;
            int total = older.size() + newer.size();
            this.keys = new byte[total][];
            this.slots = new Slot[total];
            this.codes = new long[total];
        }

        KeyRun run(long deaths) {
            int i = 0;
            int j = 0;
            long ca = a.size() > 0 ? a.codes[0] : 0;
            long cb = b.size() > 0 ? b.codes[0] : 0;
            while (i < a.size() && j < b.size()) {
                int c = KeyCodes.compare(ca, cb);
                if (c == 0) {
                    byte[] ka = a.keys[i];
                    byte[] kb = b.keys[j];
                    c = Bytes.compare(ka, kb);
                    if (c < 0) {
                        cb = KeyCodes.code(ka, kb); // the loser, relative to the new base
                    } else if (c > 0) {
                        ca = KeyCodes.code(kb, ka);
                    }
                }
                if (c < 0) {
                    take(a.keys[i], a.slots[i], ca);
                    ca = ++i < a.size() ? a.codes[i] : 0;
                } else if (c > 0) {
                    take(b.keys[j], b.slots[j], cb);
                    cb = ++j < b.size() ? b.codes[j] : 0;
                } else {
                    take(b.keys[j], b.slots[j].head != null ? b.slots[j] : a.slots[i], cb);
                    ca = ++i < a.size() ? a.codes[i] : 0;
                    cb = ++j < b.size() ? b.codes[j] : 0;
                }
            }
            rest(a, i, ca);
            rest(b, j, cb);
            return new KeyRun(n == keys.length ? keys : Arrays.copyOf(keys, n),
                    n == slots.length ? slots : Arrays.copyOf(slots, n),
                    n == codes.length ? codes : Arrays.copyOf(codes, n), deaths);
        }

        /** The rest of one run from {@code from}, whose code relative to the base is {@code code}. */
        private void rest(KeyRun run, int from, long code) {
            if (from >= run.size()) {
                return;
            }
            take(run.keys[from], run.slots[from], code);
            for (int i = from + 1; i < run.size(); i++) {
                take(run.keys[i], run.slots[i], run.codes[i]);
            }
        }

        private void take(byte[] key, Slot slot, long code) {
            if (slot.head == null) {
                recode = true; // dropped: the next key's code is relative to this one, not to the last kept
                return;
            }
            keys[n] = key;
            slots[n] = slot;
            codes[n++] = recode ? KeyCodes.code(lastKept, key) : code;
            recode = false;
            lastKept = key;
        }
    }
}
