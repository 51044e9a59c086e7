package dev.partita.core.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** MurmurHash3, UTF-8 and the binary number encoding against independent references. */
class HashPrimitivesTest {

    @Test
    void murmur3x86_32KnownVectors() {
        assertThat(Murmur3x86_32.hash(new byte[0], 0)).isEqualTo(0);
        assertThat(Murmur3x86_32.hash(new byte[0], 1)).isEqualTo(0x514E28B7);
        assertThat(Murmur3x86_32.hash(new byte[4], 0)).isEqualTo(0x2362F9DE);
        assertThat(Murmur3x86_32.hash("aaaa".getBytes(StandardCharsets.US_ASCII), 0x9747b28c)).isEqualTo(0x5A97808A);
        assertThat(Murmur3x86_32.hash("Hello, world!".getBytes(StandardCharsets.US_ASCII), 0x9747b28c))
                .isEqualTo(0x24884CBA);
    }

    @Test
    void murmur3x64_128EmptyInputIsZero() {
        Murmur3x64_128 m = new Murmur3x64_128();
        m.finish();
        assertThat(m.h1()).isZero();
        assertThat(m.h2()).isZero();
    }

    @Property(tries = 300)
    void streamingMurmur128MatchesBlockReference(@ForAll byte[] data) {
        Murmur3x64_128 m = new Murmur3x64_128();
        for (byte b : data) {
            m.put(b);
        }
        m.finish();
        long[] ref = referenceMurmur128(data);
        assertThat(m.h1()).isEqualTo(ref[0]);
        assertThat(m.h2()).isEqualTo(ref[1]);
        m.reset();
        for (byte b : data) {
            m.put(b);
        }
        m.finish();
        assertThat(m.h1()).isEqualTo(ref[0]);
    }

    @Property(tries = 500)
    void utf8MatchesJava(@ForAll String s) {
        byte[] expected = s.getBytes(StandardCharsets.UTF_8);
        KeyEncoding.ByteArraySink sink = new KeyEncoding.ByteArraySink(s.length() * 4 + 1);
        sink.putUtf8(s, 0, s.length());
        assertThat(sink.toByteArray()).isEqualTo(expected);
        assertThat(ByteSink.utf8Length(s, 0, s.length())).isEqualTo(expected.length);
    }

    @Test
    void utf8OfLoneSurrogatesMatchesJava() {
        for (String s : new String[] {"\uD800", "a\uDC00b", "\uD83D\uDE00", "\uDE00\uD83D", "x\uD83D"}) {
            utf8MatchesJava(s);
        }
    }

    @Property(tries = 1000)
    void binaryNumberEncodingRoundTripsAndPreservesOrder(@ForAll double a, @ForAll double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return;
        }
        String ha = KeyEncoding.binaryNumberHex(a);
        String hb = KeyEncoding.binaryNumberHex(b);
        assertThat(KeyEncoding.decodeLeadingNumber(ha).doubleValue() == a).isTrue(); // -0.0 encodes like 0.0
        if (Double.compare(a, b) < 0 && !(a == 0.0 && b == 0.0)) {
            assertThat(ha.compareTo(hb)).isNegative();
        }
    }

    @Property(tries = 300)
    void v1HashNumbersEncodeInOrder(@ForAll @IntRange(min = 0) int a, @ForAll @IntRange(min = 0) int b) {
        String ha = KeyEncoding.binaryNumberHex(a);
        String hb = KeyEncoding.binaryNumberHex(b);
        assertThat(Integer.signum(ha.compareTo(hb))).isEqualTo(Integer.signum(Integer.compare(a, b)));
    }

    /** A straightforward block-at-a-time port of the reference C implementation (MurmurHash3_x64_128, seed 0). */
    static long[] referenceMurmur128(byte[] data) {
        long c1 = 0x87c37b91114253d5L;
        long c2 = 0x4cf5ad432745937fL;
        long h1 = 0;
        long h2 = 0;
        int nblocks = data.length / 16;
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(data).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < nblocks; i++) {
            long k1 = bb.getLong(i * 16);
            long k2 = bb.getLong(i * 16 + 8);
            k1 *= c1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= c2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= c2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= c1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = nblocks * 16;
        int rem = data.length & 15;
        for (int i = rem - 1; i >= 8; i--) {
            k2 ^= (data[tail + i] & 0xFFL) << ((i - 8) * 8);
        }
        if (rem > 8) {
            k2 *= c2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= c1;
            h2 ^= k2;
        }
        for (int i = Math.min(rem, 8) - 1; i >= 0; i--) {
            k1 ^= (data[tail + i] & 0xFFL) << (i * 8);
        }
        if (rem > 0) {
            k1 *= c1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= c2;
            h1 ^= k1;
        }
        h1 ^= data.length;
        h2 ^= data.length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
