package dev.partita.core.store;

/**
 * The order of a batch's keys, as positions: a merge sort of an {@code int[]} over unsigned byte comparison.
 *
 * <p>Why not {@code Arrays.sort} over boxed positions with a comparator: that is {@code TimSort}, which the whole JVM
 * shares over every kind of {@code Object[]}; its array-store checks fail as the kinds change, so C2 recompiled
 * {@code mergeHi}/{@code mergeLo} ten times each in a cold 100,000-document seed (a fifth of the server's JIT time),
 * and the boxing and the comparator's indirection cost on every write besides. This sort is ours alone, monomorphic
 * and allocates two arrays.
 */
final class KeySort {
    /** Segments this short are sorted by insertion: a single write's ~16 keys never reach the merge. */
    private static final int INSERTION_MAX = 24;

    private KeySort() {
    }

    /** The positions {@code 0..n-1} of {@code keys} in ascending key order (equal keys: either order). */
    static int[] order(byte[][] keys, int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (n > INSERTION_MAX) {
            mergeSort(keys, order, order.clone(), 0, n);
        } else {
            insertionSort(keys, order, 0, n);
        }
        return order;
    }

    /** Sorts {@code a[from, to)}; {@code b} holds the same positions on entry and serves as the other buffer. */
    private static void mergeSort(byte[][] keys, int[] a, int[] b, int from, int to) {
        if (to - from <= INSERTION_MAX) {
            insertionSort(keys, a, from, to);
            return;
        }
        int mid = (from + to) >>> 1;
        // Sort both halves into b (whose halves are a's, with the roles swapped), then merge them back into a.
        mergeSort(keys, b, a, from, mid);
        mergeSort(keys, b, a, mid, to);
        if (Bytes.compare(keys[b[mid - 1]], keys[b[mid]]) <= 0) {
            System.arraycopy(b, from, a, from, to - from); // already in order: common for keys written in order
            return;
        }
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && Bytes.compare(keys[b[i]], keys[b[j]]) <= 0)) {
                a[k] = b[i++];
            } else {
                a[k] = b[j++];
            }
        }
    }

    private static void insertionSort(byte[][] keys, int[] a, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int p = a[i];
            byte[] key = keys[p];
            int j = i - 1;
            while (j >= from && Bytes.compare(keys[a[j]], key) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = p;
        }
    }
}
