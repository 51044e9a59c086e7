package dev.partita.core.account;

import java.util.Base64;

/**
 * The service's {@code _rid} layout (protocol.md §3.4), which the SDK parses: database 4 bytes; container = database
 * bytes + 4 bytes with the top bit set; document = container + 8 bytes whose last byte's high nibble is 0; partition
 * key range = container + 8 bytes with last byte 0x50; user = database bytes + 4 bytes with the top bit clear;
 * permission = user + 8 bytes. Base64 with padding, {@code /} written as {@code -}.
 *
 * <p>A collection child's 8 bytes are one little-endian number whose top nibble is the child's type: the sequence
 * starts at byte 8, low byte first. The SDKs read it so when they resume an ORDER BY query between items of equal
 * keys (the Java SDK's {@code ResourceId.getDocument}, the JavaScript SDK's {@code RidSkipCountFilter}), so the
 * document order they see is the order of the sequences.
 */
public final class ResourceIds {
    private ResourceIds() {
    }

    public static String encode(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes).replace('/', '-');
    }

    /** Decodes a rid string, or returns {@code null} if it is not one. */
    public static byte[] tryDecode(String rid) {
        if (rid == null || rid.isEmpty() || rid.length() % 4 != 0) {
            return null;
        }
        try {
            byte[] b = Base64.getDecoder().decode(rid.replace('-', '/'));
            return b.length == 3 || (b.length % 4 == 0 && b.length <= 20) ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public static byte[] database(int databaseId) {
        return intBytes(databaseId);
    }

    public static byte[] container(byte[] database, int containerId) {
        byte[] b = new byte[8];
        System.arraycopy(database, 0, b, 0, 4);
        writeInt(b, 4, containerId | 0x80000000);
        return b;
    }

    public static byte[] document(byte[] container, long sequence) {
        return child(container, sequence, 0x00);
    }

    public static byte[] partitionKeyRange(byte[] container, long sequence) {
        return child(container, sequence, 0x50);
    }

    public static byte[] user(byte[] database, long sequence) {
        byte[] b = new byte[8];
        System.arraycopy(database, 0, b, 0, 4);
        // the top bit of byte 4 must stay clear (set means a container); 0 would read as "no user"
        writeInt(b, 4, (int) (sequence & 0x7FFFFFFF));
        return b;
    }

    /**
     * A client encryption key: a user's layout (the SDKs parse both as a database child of 8 bytes), with bit 30 of
     * the child set so that a key's rid is never a user's.
     */
    public static byte[] clientEncryptionKey(byte[] database, long sequence) {
        byte[] b = new byte[8];
        System.arraycopy(database, 0, b, 0, 4);
        writeInt(b, 4, (int) (sequence & 0x3FFFFFFF) | 0x40000000);
        return b;
    }

    public static byte[] permission(byte[] user, long sequence) {
        byte[] b = new byte[16];
        System.arraycopy(user, 0, b, 0, 8);
        for (int i = 15; i >= 8; i--) {
            b[i] = (byte) sequence;
            sequence >>>= 8;
        }
        return b;
    }

    /** A stored procedure, trigger or user-defined function: {@code typeByte} is 0x80, 0x70 or 0x60. */
    public static byte[] script(byte[] container, long sequence, int typeByte) {
        return child(container, sequence, typeByte);
    }

    /** The sequence of a collection child's rid ({@link #document}, {@link #script}): bytes 8..14, low byte first. */
    public static long childSequence(byte[] rid) {
        long v = 0;
        for (int i = 14; i >= 8; i--) {
            v = (v << 8) | (rid[i] & 0xFF);
        }
        return v;
    }

    /** Offers use the special 3-byte form. */
    public static byte[] offer(int offerId) {
        return new byte[] {(byte) (offerId >>> 16), (byte) (offerId >>> 8), (byte) offerId};
    }

    /** The container id part (bytes 4..7) of a container or child rid: unique across the account. */
    public static int containerId(byte[] rid) {
        return readInt(rid, 4);
    }

    public static int databaseId(byte[] rid) {
        return readInt(rid, 0);
    }

    /** True when the string decodes to a database rid, which is how the SDK tells rid paths from name paths. */
    public static boolean isDatabaseRid(String s) {
        byte[] b = tryDecode(s);
        return b != null && b.length == 4 && readInt(b, 0) != 0;
    }

    private static byte[] child(byte[] container, long sequence, int typeByte) {
        byte[] b = new byte[16];
        System.arraycopy(container, 0, b, 0, 8);
        for (int i = 8; i <= 14; i++) {
            b[i] = (byte) sequence;
            sequence >>>= 8;
        }
        b[15] = (byte) typeByte;
        return b;
    }

    private static byte[] intBytes(int v) {
        byte[] b = new byte[4];
        writeInt(b, 0, v);
        return b;
    }

    static void writeInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    static int readInt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }
}
