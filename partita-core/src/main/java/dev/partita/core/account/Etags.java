package dev.partita.core.account;

/**
 * Entity tags in the service's quoted GUID-like shape. An etag is derived from a scope (the container id for items, 0
 * for metadata) and a sequence number (the write's LSN), so it changes on every write and needs no storage.
 */
public final class Etags {
    private Etags() {
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    public static String of(int scope, long sequence) {
        char[] c = new char[38];
        c[0] = '"';
        hex(c, 1, scope & 0xFFFFFFFFL, 8);
        c[9] = '-';
        hex(c, 10, 0, 4);
        c[14] = '-';
        hex(c, 15, 0, 4);
        c[19] = '-';
        hex(c, 20, sequence >>> 48, 4);
        c[24] = '-';
        hex(c, 25, sequence, 12);
        c[37] = '"';
        return new String(c);
    }

    /** Whether an If-Match or If-None-Match condition names {@code etag}: {@code *} names any. */
    public static boolean matches(String condition, String etag) {
        String c = condition.trim();
        return "*".equals(c) || c.equals(etag);
    }

    private static void hex(char[] c, int off, long v, int digits) {
        for (int i = off + digits - 1; i >= off; i--) {
            c[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }
}
