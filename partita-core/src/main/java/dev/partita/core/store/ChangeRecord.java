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
 * @param previousLsn   LSN of the version this write replaced or deleted, 0 for a create
 * @param newImage      the item's stored JSON after the write; {@code null} for deletes
 * @param previousImage the item's JSON before a replace or delete; {@code null} for creates
 */
public record ChangeRecord(Operation operation, long lsn, long ts, String epk, String id, long previousLsn,
        byte[] newImage, byte[] previousImage) {

    public enum Operation {
        CREATE, REPLACE, DELETE, TTL_EXPIRE;

        public boolean isDelete() {
            return this == DELETE || this == TTL_EXPIRE;
        }
    }

    public byte[] encode() {
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
        if (encoded[0] != 1) {
            throw new IllegalStateException("unknown change record format " + encoded[0]);
        }
        Operation op = Operation.values()[encoded[1]];
        long lsn = longAt(encoded, 2);
        long ts = longAt(encoded, 10);
        int epkLength = ((encoded[18] & 0xFF) << 8) | (encoded[19] & 0xFF);
        // EPKs are upper-case hex: their modified-UTF-8 form is plain ASCII
        String epk = new String(encoded, 20, epkLength, java.nio.charset.StandardCharsets.US_ASCII);
        int idAt = 20 + epkLength;
        int idLength = ((encoded[idAt] & 0xFF) << 8) | (encoded[idAt + 1] & 0xFF);
        String id = modifiedUtf8(encoded, idAt + 2, idLength);
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
