package dev.partita.core.partition;

/**
 * Something that consumes bytes one at a time: the streaming hashes and the binary key encoder. Lets the hash inputs
 * be produced without building an intermediate byte array.
 */
abstract class ByteSink {

    /** Consumes the low 8 bits of {@code b}. */
    abstract void put(int b);

    /** The 8 bytes of {@code v}, least significant first. */
    final void putLongLittleEndian(long v) {
        for (int i = 0; i < 8; i++) {
            put((int) (v >>> (i * 8)));
        }
    }

    /**
     * The UTF-8 bytes of {@code s[from, to)}, exactly as {@code s.substring(from, to).getBytes(UTF_8)} would produce
     * them: an unpaired surrogate (including a high surrogate cut off at {@code to}) becomes {@code '?'}.
     */
    final void putUtf8(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                put(c);
            } else if (c < 0x800) {
                put(0xC0 | (c >> 6));
                put(0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    put(0xF0 | (cp >> 18));
                    put(0x80 | ((cp >> 12) & 0x3F));
                    put(0x80 | ((cp >> 6) & 0x3F));
                    put(0x80 | (cp & 0x3F));
                } else {
                    put('?');
                }
            } else {
                put(0xE0 | (c >> 12));
                put(0x80 | ((c >> 6) & 0x3F));
                put(0x80 | (c & 0x3F));
            }
        }
    }

    /** The number of bytes {@link #putUtf8} writes for {@code s[from, to)}. */
    static int utf8Length(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    n += 4;
                } else {
                    n += 1;
                }
            } else {
                n += 3;
            }
        }
        return n;
    }
}
