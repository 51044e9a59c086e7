package dev.partita.core.store;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One entry of a container's change log, written in the same store batch as the item write it records: enough to
 * serve both change-feed modes (the new image for latest-version, the operation and previous image for
 * all-versions-and-deletes).
 *
 * <p>A create or replace is logged without its image while it is the item's stored version: the item holds the same
 * bytes, and a second copy per write was a quarter of the memory store's bytes. The write that supersedes or removes
 * the version fills the image into this record ({@link #withImage}) in its own batch, so a snapshot sees every
 * superseded version's image in its record and every latest one in its item ({@link #holdsImage}).
 *
 * @param previousLsn   LSN of the version this write replaced or deleted, 0 for a create
 * @param newImage      the item's stored JSON after the write; {@code null} for deletes, and for a create or replace
 *                      whose version is (or, in the snapshot it was read from, was) the item's stored one
 * @param previousImage the item's JSON before a delete (the feed's {@code previous}); {@code null} for creates, and
 *                      for replaces logged since the image moved into the superseded record
 */
public record ChangeRecord(Operation operation, long lsn, long ts, String epk, String id, long previousLsn,
        byte[] newImage, byte[] previousImage) {

    public enum Operation {
        CREATE, REPLACE, DELETE, TTL_EXPIRE;

        public boolean isDelete() {
            return this == DELETE || this == TTL_EXPIRE;
        }
    }

    /**
     * The record as stored: a format byte, the operation, the LSN and timestamp, the EPK and id as
     * {@link DataOutputStream#writeUTF modified UTF-8}, the previous LSN and both images, each after its length (-1 for
     * none). Written straight into one array of the exact size when the EPK and id are plain ASCII (EPKs always are,
     * ids nearly always): the same bytes as through a {@code DataOutputStream}, without its copies and its per-field
     * calls, once per write.
     */
    public byte[] encode() {
        if (!plainAscii(epk) || !plainAscii(id)) {
            return encodeWithStream();
        }
        byte[] b = new byte[1 + 1 + 8 + 8 + 2 + epk.length() + 2 + id.length() + 8 + 4 + length(newImage) + 4
                + length(previousImage)];
        b[0] = 1;
        b[1] = (byte) operation.ordinal();
        Bytes.putLong(b, 2, lsn);
        Bytes.putLong(b, 10, ts);
        int at = putAscii(b, 18, epk);
        at = putAscii(b, at, id);
        Bytes.putLong(b, at, previousLsn);
        at = putImage(b, at + 8, newImage);
        putImage(b, at, previousImage);
        return b;
    }

    /** {@link #encode} for any EPK and id: {@code DataOutputStream} writes their modified UTF-8. */
    byte[] encodeWithStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + length(newImage) + length(previousImage));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeByte(operation.ordinal());
            out.writeLong(lsn);
            out.writeLong(ts);
            out.writeUTF(epk);
            out.writeUTF(id);
            out.writeLong(previousLsn);
            writeBytes(out, newImage);
            writeBytes(out, previousImage);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Whether modified UTF-8 writes {@code s} one byte per char (1..127, no NUL) and its length fits a short. */
    private static boolean plainAscii(String s) {
        if (s.length() > 0xFFFF) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || c > 0x7F) {
                return false;
            }
        }
        return true;
    }

    /** Writes a plain-ASCII string after its 2-byte length; returns the next offset. */
    private static int putAscii(byte[] b, int at, String s) {
        int n = s.length();
        b[at] = (byte) (n >>> 8);
        b[at + 1] = (byte) n;
        for (int i = 0; i < n; i++) {
            b[at + 2 + i] = (byte) s.charAt(i);
        }
        return at + 2 + n;
    }

    /** Writes an image after its 4-byte length (-1: none); returns the next offset. */
    private static int putImage(byte[] b, int at, byte[] image) {
        putInt(b, at, image == null ? -1 : image.length);
        if (image != null) {
            System.arraycopy(image, 0, b, at + 4, image.length);
            return at + 4 + image.length;
        }
        return at + 4;
    }

    /** The same change with its new image filled in (from the item that holds it). */
    public ChangeRecord withNewImage(byte[] image) {
        return new ChangeRecord(operation, lsn, ts, epk, id, previousLsn, image, previousImage);
    }

    /** Whether an encoded record carries its new image (deletes never do). */
    public static boolean holdsImage(byte[] encoded) {
        return intAt(encoded, newImageAt(encoded)) >= 0;
    }

    /**
     * An encoded create or replace without its image, with {@code length} bytes of {@code image} from {@code offset}
     * as its new image: what a later write of the same item puts back in place of the record it supersedes.
     */
    public static byte[] withImage(byte[] encoded, byte[] image, int offset, int length) {
        int at = newImageAt(encoded);
        if (intAt(encoded, at) >= 0) {
            throw new IllegalStateException("the change record already holds its image");
        }
        byte[] b = new byte[encoded.length + length];
        System.arraycopy(encoded, 0, b, 0, at);
        putInt(b, at, length);
        System.arraycopy(image, offset, b, at + 4, length);
        System.arraycopy(encoded, at + 4, b, at + 4 + length, encoded.length - at - 4);
        return b;
    }

    /** The previous LSN of an encoded record (0 for a create), read without decoding it. */
    public static long previousLsn(byte[] encoded) {
        return longAt(encoded, newImageAt(encoded) - 8);
    }

    /** Where an encoded record's new-image length is: after the header, the EPK, the id and the previous LSN. */
    private static int newImageAt(byte[] encoded) {
        int idAt = idAt(encoded);
        return idAt + 2 + u16(encoded, idAt) + 8;
    }

    /** Where an encoded record's id (its 2-byte length) starts, after the fixed header and the EPK. */
    private static int idAt(byte[] encoded) {
        if (encoded[0] != 1) {
            throw new IllegalStateException("unknown change record format " + encoded[0]);
        }
        return 20 + u16(encoded, 18);
    }

    private static int u16(byte[] b, int off) {
        return ((b[off] & 0xFF) << 8) | (b[off + 1] & 0xFF);
    }

    private static void putInt(byte[] b, int at, int n) {
        b[at] = (byte) (n >>> 24);
        b[at + 1] = (byte) (n >>> 16);
        b[at + 2] = (byte) (n >>> 8);
        b[at + 3] = (byte) n;
    }

    private static int intAt(byte[] b, int off) {
        return ((b[off] & 0xFF) << 24) | ((b[off + 1] & 0xFF) << 16) | ((b[off + 2] & 0xFF) << 8) | (b[off + 3] & 0xFF);
    }

    public static ChangeRecord decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(encoded))) {
            int format = in.readByte();
            if (format != 1) {
                throw new IllegalStateException("unknown change record format " + format);
            }
            Operation op = Operation.values()[in.readByte()];
            return new ChangeRecord(op, in.readLong(), in.readLong(), in.readUTF(), in.readUTF(), in.readLong(),
                    readBytes(in), readBytes(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The fields a change-feed scan filters on, read straight from an encoded record without copying its images (a
     * scan looks at every record after its start point but loads only the ones it returns).
     */
    public record Header(Operation operation, long lsn, long ts, String epk, String id) {
    }

    public static Header peek(byte[] encoded) {
        int idAt = idAt(encoded);
        Operation op = Operation.values()[encoded[1]];
        long lsn = longAt(encoded, 2);
        long ts = longAt(encoded, 10);
        // EPKs are upper-case hex: their modified-UTF-8 form is plain ASCII
        String epk = new String(encoded, 20, idAt - 20, java.nio.charset.StandardCharsets.US_ASCII);
        String id = modifiedUtf8(encoded, idAt + 2, u16(encoded, idAt));
        return new Header(op, lsn, ts, epk, id);
    }

    private static String modifiedUtf8(byte[] b, int off, int length) {
        for (int i = off; i < off + length; i++) {
            if (b[i] <= 0) {
                // a non-ASCII id (or an encoded NUL): let DataInputStream undo the modified UTF-8 encoding
                byte[] framed = new byte[length + 2];
                framed[0] = (byte) (length >>> 8);
                framed[1] = (byte) length;
                System.arraycopy(b, off, framed, 2, length);
                try {
                    return new DataInputStream(new java.io.ByteArrayInputStream(framed)).readUTF();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new String(b, off, length, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static long longAt(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    private static int length(byte[] b) {
        return b == null ? 0 : b.length;
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b == null ? -1 : b.length);
        if (b != null) {
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        return n < 0 ? null : in.readNBytes(n);
    }
}
