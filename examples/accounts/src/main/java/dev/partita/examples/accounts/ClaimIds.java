package dev.partita.examples.accounts;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The id of an address's claim: {@code email:} plus a keyed hash (HMAC-SHA256) of the normalized address.
 *
 * <p>The record (seed 001) puts the normalized address itself in the id. That leaks it: the SDK's diagnostics print
 * every request's URL, the id included, and diagnostics end up in logs. A keyed hash keeps what the design needs —
 * one id per address, so the store's 409 on a duplicate id still makes the address unique — without the address.
 */
public final class ClaimIds {
    private final SecretKeySpec key;

    /** @param secret the application's key for claim ids; changing it orphans every existing claim */
    public ClaimIds(byte[] secret) {
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    public String idFor(String email) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal(EmailClaim.normalize(email).getBytes(StandardCharsets.UTF_8));
            return EmailClaim.PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
