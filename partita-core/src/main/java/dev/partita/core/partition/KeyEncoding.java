package dev.partita.core.partition;

import dev.partita.core.partition.PartitionKeyValue.Bool;
import dev.partita.core.partition.PartitionKeyValue.Component;
import dev.partita.core.partition.PartitionKeyValue.Null;
import dev.partita.core.partition.PartitionKeyValue.Num;
import dev.partita.core.partition.PartitionKeyValue.Str;
import dev.partita.core.partition.PartitionKeyValue.Undefined;
import java.nio.charset.StandardCharsets;

/**
 * The byte-level formats of partition key components (protocol.md §5.2, §5.4): the type markers, the hash inputs of V1
 * and V2, the order-preserving binary encoding that V1 EPKs (and Range-kind keys) are made of, and upper-case hex.
 */
final class KeyEncoding {

    private KeyEncoding() {
    }

    static final int UNDEFINED = 0x00;
    static final int NULL = 0x01;
    static final int FALSE = 0x02;
    static final int TRUE = 0x03;
    static final int NUMBER = 0x05;
    static final int STRING = 0x08;
    static final int INFINITY = 0xFF;

    /** V1 hashes (and encodes) only the first 100 UTF-16 chars of a string. */
    static final int V1_MAX_STRING_CHARS = 100;
    /** The binary encoding keeps at most 100 bytes plus a terminator, or 101 bytes without one. */
    static final int MAX_STRING_BYTES_TO_APPEND = 100;

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.ISO_8859_1);

    // ---------------------------------------------------------------------------------------------------- hashing

    /** The hash V1 input of one component (strings truncated to 100 chars, terminated by 0x00). */
    static void writeForHashingV1(Component c, ByteSink out) {
        switch (c) {
            case Str s -> {
                String v = s.value();
                out.put(STRING);
                out.putUtf8(v, 0, Math.min(v.length(), V1_MAX_STRING_CHARS));
                out.put(0x00);
            }
            case Num n -> {
                out.put(NUMBER);
                out.putLongLittleEndian(Double.doubleToLongBits(n.value()));
            }
            default -> out.put(marker(c));
        }
    }

    /** The hash V2 / MultiHash input of one component (whole strings, terminated by 0xFF). */
    static void writeForHashingV2(Component c, ByteSink out) {
        switch (c) {
            case Str s -> {
                String v = s.value();
                out.put(STRING);
                out.putUtf8(v, 0, v.length());
                out.put(0xFF);
            }
            case Num n -> {
                out.put(NUMBER);
                out.putLongLittleEndian(Double.doubleToLongBits(n.value()));
            }
            default -> out.put(marker(c));
        }
    }

    static int marker(Component c) {
        return switch (c) {
            case Undefined u -> UNDEFINED;
            case Null n -> NULL;
            case Bool b -> b.value() ? TRUE : FALSE;
            case Num n -> NUMBER;
            case Str s -> STRING;
        };
    }

    // ------------------------------------------------------------------------------------------- binary encoding

    /** Most bytes {@link #writeBinary} can produce for one component. */
    static final int MAX_BINARY_COMPONENT_BYTES = 1 + MAX_STRING_BYTES_TO_APPEND + 2;

    /**
     * The order-preserving binary encoding of one component. With {@code truncateChars} strings are first cut to 100
     * UTF-16 chars (what V1 does before encoding); Range-kind keys encode them uncut.
     */
    static void writeBinary(Component c, boolean truncateChars, ByteSink out) {
        switch (c) {
            case Str s -> {
                String v = s.value();
                int to = truncateChars ? Math.min(v.length(), V1_MAX_STRING_CHARS) : v.length();
                out.put(STRING);
                int utf8 = ByteSink.utf8Length(v, 0, to);
                boolean shortString = utf8 <= MAX_STRING_BYTES_TO_APPEND;
                int limit = shortString ? utf8 : MAX_STRING_BYTES_TO_APPEND + 1;
                ByteSink plusOne = new LimitedPlusOne(out, limit);
                plusOne.putUtf8(v, 0, to);
                if (shortString) {
                    out.put(0x00);
                }
            }
            case Num n -> writeBinaryNumber(n.value(), out);
            default -> out.put(marker(c));
        }
    }

    /** Writes each UTF-8 byte plus one, up to a limit, to another sink. */
    private static final class LimitedPlusOne extends ByteSink {
        private final ByteSink out;
        private int remaining;

        LimitedPlusOne(ByteSink out, int limit) {
            this.out = out;
            this.remaining = limit;
        }

        @Override
        void put(int b) {
            if (remaining > 0) {
                remaining--;
                out.put(b + 1);
            }
        }
    }

    /** The number marker and the 8+7+7... bit encoding of the order-preserving 64-bit image of {@code value}. */
    static void writeBinaryNumber(double value, ByteSink out) {
        out.put(NUMBER);
        long payload = encodeDoubleAsUInt64(value);
        out.put((int) (payload >>> 56));
        payload <<= 8;
        int byteToWrite = 0;
        boolean first = true;
        do {
            if (!first) {
                out.put(byteToWrite);
            } else {
                first = false;
            }
            byteToWrite = (int) ((payload >>> 56) | 0x01);
            payload <<= 7;
        } while (payload != 0);
        out.put(byteToWrite & 0xFE);
    }

    static long encodeDoubleAsUInt64(double value) {
        long bits = Double.doubleToRawLongBits(value);
        long mask = 0x8000000000000000L;
        return Long.compareUnsigned(bits, mask) < 0 ? bits ^ mask : -bits;
    }

    static double decodeDoubleFromUInt64(long payload) {
        long bits = Long.compareUnsigned(payload, 0x8000000000000000L) < 0 ? -payload : payload ^ 0x8000000000000000L;
        return Double.longBitsToDouble(bits);
    }

    /**
     * Decodes the number at the start of a binary-encoded key given as hex (e.g. the hash of a V1 EPK), or returns
     * {@code null} if the string does not start with a complete number encoding.
     */
    static Double decodeLeadingNumber(String hex) {
        if (hex.length() < 4 || parseHexByte(hex, 0) != NUMBER) {
            return null;
        }
        int pos = 2;
        int offset = 64 - 8;
        int first = parseHexByte(hex, pos);
        if (first < 0) {
            return null;
        }
        long payload = ((long) first) << offset;
        pos += 2;
        while (true) {
            if (pos + 2 > hex.length()) {
                return null;
            }
            int b = parseHexByte(hex, pos);
            if (b < 0) {
                return null;
            }
            pos += 2;
            offset -= 7;
            if (offset < 0) {
                return null;
            }
            payload |= ((long) (b >> 1)) << offset;
            if ((b & 0x01) == 0) {
                break;
            }
        }
        return decodeDoubleFromUInt64(payload);
    }

    private static int parseHexByte(String hex, int pos) {
        if (pos + 2 > hex.length()) {
            return -1;
        }
        int hi = Character.digit(hex.charAt(pos), 16);
        int lo = Character.digit(hex.charAt(pos + 1), 16);
        return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
    }

    /** The hex form of the binary encoding of a single number, e.g. a V1 split point. */
    static String binaryNumberHex(double value) {
        ByteArraySink sink = new ByteArraySink(16);
        writeBinaryNumber(value, sink);
        return sink.toHex();
    }

    // ------------------------------------------------------------------------------------------------------ hex

    /** Writes the 16 upper-case hex digits of {@code v} into {@code out} at {@code off}. */
    static void hexLong(long v, byte[] out, int off) {
        for (int i = 15; i >= 0; i--) {
            out[off + i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    static String hex(byte[] bytes, int length) {
        byte[] out = new byte[length * 2];
        for (int i = 0; i < length; i++) {
            int v = bytes[i] & 0xFF;
            out[2 * i] = HEX[v >>> 4];
            out[2 * i + 1] = HEX[v & 0xF];
        }
        return ascii(out);
    }

    static String ascii(byte[] chars) {
        return new String(chars, StandardCharsets.ISO_8859_1);
    }

    /** A fixed-capacity byte buffer. */
    static final class ByteArraySink extends ByteSink {
        private final byte[] buf;
        private int len;

        ByteArraySink(int capacity) {
            buf = new byte[capacity];
        }

        @Override
        void put(int b) {
            buf[len++] = (byte) b;
        }

        int length() {
            return len;
        }

        byte[] toByteArray() {
            return java.util.Arrays.copyOf(buf, len);
        }

        String toHex() {
            return hex(buf, len);
        }
    }
}
