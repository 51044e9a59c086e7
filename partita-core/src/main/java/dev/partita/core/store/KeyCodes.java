package dev.partita.core.store;

import java.util.Arrays;

/**
 * Offset-value codes, so that merging two sorted runs of keys compares longs instead of keys: the keys of a run sit
 * wherever they were allocated (in insert order), and dereferencing each of them at every merge was a cache miss per
 * key per level.
 *
 * <p>A key's code relative to a smaller (or equal) base key says how many whole 6-byte units it shares with the base
 * and what its next unit is (zero padded), packed so that, for two keys with codes relative to the <em>same</em> base,
 * a smaller unsigned code means a smaller key. When the codes differ, the loser's code relative to the winner equals its
 * code relative to the old base (they first differ in the unit where the codes do); so in a merge, where the base is
 * always the last key taken, only equal codes (or an {@link #UNKNOWN} one) need the keys themselves.
 *
 * <p>Layout: the top 16 bits hold {@code 0xFFFF - units shared} (more shared units: a smaller key), the low 48 bits the
 * next unit. Keys sharing 0xFFFF units or more (~390 KB) get {@link #UNKNOWN}, which always falls back to the keys.
 */
final class KeyCodes {
    /** A code that says nothing: compare the keys. */
    static final long UNKNOWN = 0L;

    private static final int UNIT = 6;
    private static final int MAX_UNITS = 0xFFFE;

    private KeyCodes() {
    }

    /** The code of {@code key} relative to {@code base} ({@code null}: the empty key); {@code base <= key}. */
    static long code(byte[] base, byte[] key) {
        int shared = base == null ? 0 : Arrays.mismatch(base, key);
        if (shared < 0) {
            shared = key.length; // equal keys
        }
        int units = shared / UNIT;
        if (units > MAX_UNITS) {
            return UNKNOWN;
        }
        long value = 0;
        int from = units * UNIT;
        for (int i = 0; i < UNIT; i++) {
            value = (value << 8) | (from + i < key.length ? key[from + i] & 0xFF : 0);
        }
        return ((long) (0xFFFF - units) << 48) | value;
    }

    /**
     * The order of two keys from their codes relative to one base, or 0 when the codes cannot tell (equal codes, or
     * one unknown) and the keys must be compared.
     */
    static int compare(long a, long b) {
        if (a == b || a == UNKNOWN || b == UNKNOWN) {
            return 0;
        }
        return Long.compareUnsigned(a, b);
    }
}
