package dev.partita.core.partition;

/**
 * MurmurHash3 x86_32 (Austin Appleby's public-domain algorithm), fed one byte at a time. Used by hash V1. One
 * instance hashes one input; it is not thread-safe.
 */
final class Murmur3x86_32 extends ByteSink {

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private int h1;
    private int k1;
    private int fill;
    private int length;

    Murmur3x86_32(int seed) {
        this.h1 = seed;
    }

    @Override
    void put(int b) {
        k1 |= (b & 0xFF) << (fill << 3);
        length++;
        if (++fill == 4) {
            h1 ^= mixK1(k1);
            h1 = Integer.rotateLeft(h1, 13);
            h1 = h1 * 5 + 0xe6546b64;
            k1 = 0;
            fill = 0;
        }
    }

    private static int mixK1(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        k *= C2;
        return k;
    }

    /** Finishes the hash; the instance must not be used afterwards. */
    int finish() {
        int h = h1;
        if (fill > 0) {
            h ^= mixK1(k1);
        }
        h ^= length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** The hash of a whole array, seed {@code seed}. */
    static int hash(byte[] data, int seed) {
        Murmur3x86_32 m = new Murmur3x86_32(seed);
        for (byte b : data) {
            m.put(b);
        }
        return m.finish();
    }
}
