package dev.partita.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The master-key signature of protocol.md §2.1: Base64(HMAC-SHA256(Base64Decode(key), verb + "\n" + resourceType +
 * "\n" + resourceLink + "\n" + lower(x-ms-date) + "\n" + lower(date) + "\n")), where the verb is lower-cased and the
 * link is lower-cased unless it "looks name-based" (longer than 4 characters with '/' at index 3).
 */
public final class MasterKeySignature {
    private MasterKeySignature() {
    }

    public static String stringToSign(String verb, String resourceType, String resourceLink, String xmsDate,
            String httpDate) {
        String link = resourceLink == null ? "" : resourceLink;
        if (!looksNameBased(link)) {
            link = link.toLowerCase(Locale.ROOT);
        }
        return verb.toLowerCase(Locale.ROOT) + '\n'
                + resourceType + '\n'
                + link + '\n'
                + (xmsDate == null ? "" : xmsDate.toLowerCase(Locale.ROOT)) + '\n'
                + (httpDate == null ? "" : httpDate.toLowerCase(Locale.ROOT)) + '\n';
    }

    /** The SDK's test for a name-based link ({@code PathsHelper.isNameBased}). */
    public static boolean looksNameBased(String link) {
        return link.length() > 4 && link.charAt(3) == '/';
    }

    /** The base64 signature of {@code text} under a base64 key. */
    public static String sign(String base64Key, String text) {
        return Base64.getEncoder().encodeToString(hmac(base64Key, text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Each key's HMAC, made once: decoding the key and hashing its padded blocks cost more than a signature. */
    private static final Map<String, HmacSha256> KEYS = new ConcurrentHashMap<>();
    private static final int KEYS_MAX = 64;

    static byte[] hmac(String base64Key, byte[] message) {
        HmacSha256 hmac = KEYS.get(base64Key);
        if (hmac == null) {
            hmac = new HmacSha256(Base64.getDecoder().decode(base64Key));
            if (KEYS.size() < KEYS_MAX) {
                KEYS.putIfAbsent(base64Key, hmac);
            }
        }
        return hmac.mac(message);
    }

    /** Compares two signatures in constant time. */
    public static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII),
                b.getBytes(StandardCharsets.US_ASCII));
    }
}
