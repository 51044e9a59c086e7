package dev.partita.examples.accounts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/**
 * The claim on an email address: a tiny document whose id (and so partition key) is derived from the normalized address
 * ({@link ClaimIds}). A store with no unique index across partitions still refuses a second document with the same id
 * in the same partition, so the second registration of an address is a 409, not a race both sides win.
 *
 * @param timestamp the store's {@code _ts} (seconds) as read back; tells an orphaned claim from one being written
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EmailClaim(
        @JsonProperty("id") String id,
        @JsonProperty("user_id") String userId,
        @JsonProperty(value = "_ts", access = JsonProperty.Access.WRITE_ONLY) Long timestamp) {

    /** What every claim id starts with, so a claim can never share an id with an account. */
    public static final String PREFIX = "email:";

    /** The address as lookups compare it (Identity upper-cases invariantly). */
    public static String normalize(String email) {
        return email.trim().toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "EmailClaim[for " + userId + "]";
    }
}
