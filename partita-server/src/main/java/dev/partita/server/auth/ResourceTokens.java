package dev.partita.server.auth;

import java.util.Base64;

/**
 * Resource tokens the server can verify without storing them: {@code type=resource&ver=1.0&sig=<mac>;<permissionRid>;
 * <expiresAtEpochSeconds>}, where {@code mac} is Base64(HMAC-SHA256(primary key, "resource\n" + permissionRid + "\n" +
 * expiry + "\n")). The SDK treats any key starting with {@code type=resource&} as a resource token and sends it
 * verbatim; the server checks the MAC, the expiry, and that the permission still exists (deleting a permission or its
 * user revokes its tokens at once).
 */
public final class ResourceTokens {
    /** Default lifetime of a token when the permission read does not ask for one (the service's default). */
    public static final int DEFAULT_EXPIRY_SECONDS = 3600;
    /** Shortest and longest lifetime a permission read may ask for ({@code x-ms-documentdb-expiry-seconds}). */
    public static final int MIN_EXPIRY_SECONDS = 10;
    public static final int MAX_EXPIRY_SECONDS = 18_000;

    private final String key;

    /** @param base64Key the key tokens are signed with (the account's primary key) */
    public ResourceTokens(String base64Key) {
        Base64.getDecoder().decode(base64Key);
        this.key = base64Key;
    }

    public String mint(String permissionRid, long expiresAtEpochSeconds) {
        String mac = MasterKeySignature.sign(key, payload(permissionRid, expiresAtEpochSeconds));
        return "type=resource&ver=1.0&sig=" + mac + ";" + permissionRid + ";" + expiresAtEpochSeconds;
    }

    /** A token's claims once its MAC checked out; null when it was not minted here (or was altered). */
    public record Claims(String permissionRid, long expiresAtEpochSeconds) {
    }

    /** @param sig the {@code sig} part of a {@code type=resource} authorization header */
    public Claims verify(String sig) {
        String[] parts = sig.split(";");
        if (parts.length != 3) {
            return null;
        }
        long expiry;
        try {
            expiry = Long.parseLong(parts[2].trim());
        } catch (NumberFormatException e) {
            return null;
        }
        String expected = MasterKeySignature.sign(key, payload(parts[1], expiry));
        return MasterKeySignature.same(expected, parts[0]) ? new Claims(parts[1], expiry) : null;
    }

    private static String payload(String permissionRid, long expiry) {
        return "resource\n" + permissionRid + "\n" + expiry + "\n";
    }
}
