package dev.partita.core.partition;

/**
 * MurmurHash3 x64_128 (Austin Appleby's public-domain algorithm) with seed 0, fed one byte at a time. Used by hash V2
 * and MultiHash. After {@link #finish()}, {@link #h1()} and {@link #h2()} are the two 64-bit words of the canonical
 * output (the digest's bytes are {@code h1} then {@code h2}, each little-endian). Reusable via {@link #reset()}; not
 * thread-safe.
 */
final class Murmur3x64_128 extends ByteSink {

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private long h1;
    private long h2;
    private long k1;
    private long k2;
    private int fill;
    private long length;

    void reset() {
        h1 = 0;
        h2 = 0;
        k1 = 0;
        k2 = 0;
        fill = 0;
        length = 0;
    }

    @Override
    void put(int b) {
        long v = b & 0xFFL;
        if (fill < 8) {
            k1 |= v << (fill << 3);
        } else {
            k2 |= v << ((fill - 8) << 3);
        }
        length++;
        if (++fill == 16) {
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;

            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;

            k1 = 0;
            k2 = 0;
            fill = 0;
        }
    }

    private static long mixK1(long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        k *= C2;
        return k;
    }

    private static long mixK2(long k) {
        k *= C2;
        k = Long.rotateLeft(k, 33);
        k *= C1;
        return k;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** Finishes the hash; afterwards {@link #h1()} and {@link #h2()} hold the result until {@link #reset()}. */
    void finish() {
        if (fill > 8) {
            h2 ^= mixK2(k2);
        }
        if (fill > 0) {
            h1 ^= mixK1(k1);
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        k1 = 0;
        k2 = 0;
        fill = 0;
    }

    long h1() {
        return h1;
    }

    long h2() {
        return h2;
    }
}
