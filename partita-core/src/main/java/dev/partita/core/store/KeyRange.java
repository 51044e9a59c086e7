package dev.partita.core.store;

import dev.partita.core.store.MemoryStore.Slot;
import java.util.NoSuchElementException;

/**
 * The slots of one key range of several runs, merged into one order by a binary heap of the runs' current keys (a
 * key in several runs comes once per run; only one of its slots is alive and the cursor skips the dead). Allocates
 * nothing per entry.
 */
final class KeyRange {
    private final KeyRun[] runs;
    private final int[] pos;
    private final int[] end; // exclusive, in the direction of travel
    private final int step;
    /** Where the range ends (exclusive ascending, inclusive descending), or null: checked per entry, not searched. */
    private final byte[] stop;
    private final int[] heap; // indices of the runs not yet exhausted, smallest current key (in travel order) on top
    private int size;
    private boolean started;
    private byte[] key;
    private Slot slot;

    /** {@code runs[i]}'s entries {@code [lo[i], hi[i])}, all non-empty, up to {@code stop}. */
    KeyRange(KeyRun[] runs, int[] lo, int[] hi, boolean descending, byte[] stop) {
        this.runs = runs;
        this.step = descending ? -1 : 1;
        this.stop = stop;
        this.pos = new int[runs.length];
        this.end = new int[runs.length];
        this.heap = new int[runs.length];
        for (int i = 0; i < runs.length; i++) {
            pos[i] = descending ? hi[i] - 1 : lo[i];
            end[i] = descending ? lo[i] - 1 : hi[i];
            if (inRange(i)) {
                heap[size++] = i; // a run with nothing before the stop stays out: a smaller heap for every entry
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /** Moves to the next slot; false once the range is exhausted. */
    boolean next() {
        if (started && size > 0) {
            int top = heap[0];
            pos[top] += step;
            if (!inRange(top)) {
                heap[0] = heap[--size];
            }
            siftDown(0);
        }
        started = true;
        if (size == 0) {
            key = null;
            slot = null;
            return false;
        }
        int top = heap[0];
        key = runs[top].keys[pos[top]];
        slot = runs[top].slots[pos[top]];
        return true;
    }

    byte[] key() {
        return current(key);
    }

    Slot slot() {
        current(key);
        return slot;
    }

    private static byte[] current(byte[] key) {
        if (key == null) {
            throw new NoSuchElementException();
        }
        return key;
    }

    /** Whether the run's current entry exists and comes before the stop. */
    private boolean inRange(int run) {
        if (pos[run] == end[run]) {
            return false;
        }
        if (stop == null) {
            return true;
        }
        int c = Bytes.compare(runs[run].keys[pos[run]], stop);
        return step > 0 ? c < 0 : c >= 0;
    }

    private void siftDown(int at) {
        int i = at;
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int child = left + 1 < size && before(heap[left + 1], heap[left]) ? left + 1 : left;
            if (!before(heap[child], heap[i])) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[child];
            heap[child] = t;
            i = child;
        }
    }

    private boolean before(int runA, int runB) {
        int c = Bytes.compare(runs[runA].keys[pos[runA]], runs[runB].keys[pos[runB]]);
        return step > 0 ? c < 0 : c > 0;
    }
}
