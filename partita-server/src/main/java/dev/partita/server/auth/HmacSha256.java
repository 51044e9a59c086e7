package dev.partita.server.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 (RFC 2104) under one key, built on {@link MessageDigest}: {@code H((K ^ opad) || H((K ^ ipad) || m))}.
 * Not {@code javax.crypto.Mac}: the first {@code Mac.getInstance} initialises the JCE framework, whose set-up makes an
 * {@code http:} URL, and the JDK looks for URL handlers with a class-path-wide service search (every jar, 84 for
 * {@code partita}): ~0.1 s before a server's first signed request could be checked. The digest states after the two
 * padded key blocks are kept and cloned, so a signature hashes only the message and the inner digest. Thread-safe:
 * the kept states are never updated.
 */
final class HmacSha256 {
    private static final int BLOCK_BYTES = 64;
    private static final byte INNER_PAD = 0x36;
    private static final byte OUTER_PAD = 0x5c;

    private final MessageDigest inner;
    private final MessageDigest outer;

    HmacSha256(byte[] key) {
        byte[] k = key.length > BLOCK_BYTES ? sha256().digest(key) : key;
        byte[] innerBlock = new byte[BLOCK_BYTES];
        byte[] outerBlock = new byte[BLOCK_BYTES];
        for (int i = 0; i < BLOCK_BYTES; i++) {
            byte b = i < k.length ? k[i] : 0;
            innerBlock[i] = (byte) (b ^ INNER_PAD);
            outerBlock[i] = (byte) (b ^ OUTER_PAD);
        }
        inner = sha256();
        inner.update(innerBlock);
        outer = sha256();
        outer.update(outerBlock);
    }

    /** The 32-byte HMAC of {@code message}. */
    byte[] mac(byte[] message) {
        MessageDigest in = copy(inner);
        in.update(message);
        MessageDigest out = copy(outer);
        out.update(in.digest());
        return out.digest();
    }

    private static MessageDigest copy(MessageDigest state) {
        try {
            return (MessageDigest) state.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 digest can be cloned", e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
