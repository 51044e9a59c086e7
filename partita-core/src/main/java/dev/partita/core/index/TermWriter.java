package dev.partita.core.index;

import java.util.Arrays;

/** A growable byte buffer for encoding terms (ByteArrayOutputStream synchronizes every write: too slow per byte). */
final class TermWriter {
    private byte[] buf;
    private int len;

    TermWriter(int capacity) {
        buf = new byte[capacity];
    }

    void write(int b) {
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2 + 8);
        }
        buf[len++] = (byte) b;
    }

    void writeBytes(byte[] b) {
        if (len + b.length > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + b.length));
        }
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }
}
