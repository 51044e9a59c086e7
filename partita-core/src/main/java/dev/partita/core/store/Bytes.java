package dev.partita.core.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * The one definition of key order. RocksDB's default comparator orders keys as unsigned bytes, so every in-memory
 * structure that must agree with it (the memory store, merges of ranges, tests) compares through here; Java's signed
 * {@code byte} would put {@code 0x80..0xFF} before {@code 0x00}.
 */
public final class Bytes {
    private Bytes() {
    }

    /** Unsigned lexicographic order; a proper prefix sorts first. */
    public static final Comparator<byte[]> COMPARATOR = Bytes::compare;

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix}, for scanning a prefix as
     * {@code [prefix, prefixEnd(prefix))}; {@code null} (no upper bound) when the prefix is empty or all {@code 0xFF}.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /** Lower-case hex, for messages and tests: keys are binary and must never be logged as text. */
    public static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }

    /** Writes {@code v} big-endian at {@code off}: the one long codec of keys and values. */
    public static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** The big-endian long at {@code off}. */
    public static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** {@code v} as 8 big-endian bytes. */
    public static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        putLong(b, 0, v);
        return b;
    }

    /** The long a value written by {@link #longBytes} holds; 0 when there is none. */
    public static long longValue(byte[] value) {
        return value == null ? 0 : getLong(value, 0);
    }
}
