package dev.partita.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

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

    /**
     * Initialized MACs per key, reused across requests: requests run on fresh virtual threads, so a thread-local
     * would never be reused, and {@code Mac.getInstance} + {@code init} cost more than the HMAC of a short string.
     */
    private static final Map<String, Queue<Mac>> POOL = new ConcurrentHashMap<>();
    private static final int POOL_KEYS_MAX = 64;

    static byte[] hmac(String base64Key, byte[] message) {
        Queue<Mac> pool = POOL.size() < POOL_KEYS_MAX
                ? POOL.computeIfAbsent(base64Key, k -> new ConcurrentLinkedQueue<>())
                : POOL.getOrDefault(base64Key, new ConcurrentLinkedQueue<>());
        Mac mac = pool.poll();
        try {
            if (mac == null) {
                mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(Base64.getDecoder().decode(base64Key), "HmacSHA256"));
            }
            byte[] out = mac.doFinal(message);
            pool.offer(mac);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Compares two signatures in constant time. */
    public static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII),
                b.getBytes(StandardCharsets.US_ASCII));
    }
}
