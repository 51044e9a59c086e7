package dev.partita.core.changefeed;

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
