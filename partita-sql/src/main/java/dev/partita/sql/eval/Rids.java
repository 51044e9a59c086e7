package dev.partita.sql.eval;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Reads the document number out of an item's {@code _rid} the way the Java SDK does when it resumes an ORDER BY
 * query: base64 (with {@code -} for {@code /}) of at least 16 bytes, bytes 8..15 as a little-endian long (its
 * {@code ResourceId.getDocument}), which is the document's sequence.
 */
public final class Rids {
    private Rids() {
    }

    /** The document number, or null when the text is not a document rid. */
    public static Long documentNumber(String rid) {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(rid.replace('-', '/'));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return b.length >= 16 ? Long.reverseBytes(ByteBuffer.wrap(b, 8, 8).getLong()) : null;
    }
}
