package dev.partita.examples.accounts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One account, whole, in one document of the {@code users} container (id = partition key = the account id). It holds
 * the columns of Identity's user row that this application reads, under the record's field names.
 *
 * @param lockoutEnd epoch milliseconds until which sign-in is refused, or null
 * @param etag       the store's etag as read (never written back: the store owns it)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Account(
        @JsonProperty("id") String id,
        @JsonProperty("user_name") String userName,
        @JsonProperty("normalized_user_name") String normalizedUserName,
        @JsonProperty("email") String email,
        @JsonProperty("normalized_email") String normalizedEmail,
        @JsonProperty("email_confirmed") boolean emailConfirmed,
        @JsonProperty("password_hash") String passwordHash,
        @JsonProperty("security_stamp") String securityStamp,
        @JsonProperty("lockout_end") Long lockoutEnd,
        @JsonProperty("lockout_enabled") boolean lockoutEnabled,
        @JsonProperty("access_failed_count") int accessFailedCount,
        @JsonProperty("created_at_ms") long createdAtMs,
        @JsonProperty(value = "_etag", access = JsonProperty.Access.WRITE_ONLY) String etag) {

    Account withFailures(int count, Long lockedUntil) {
        return new Account(id, userName, normalizedUserName, email, normalizedEmail, emailConfirmed, passwordHash,
                securityStamp, lockedUntil, lockoutEnabled, count, createdAtMs, etag);
    }

    Account withPassword(String hash, String stamp) {
        return new Account(id, userName, normalizedUserName, email, normalizedEmail, emailConfirmed, hash, stamp,
                lockoutEnd, lockoutEnabled, accessFailedCount, createdAtMs, etag);
    }

    Account withEtag(String newEtag) {
        return new Account(id, userName, normalizedUserName, email, normalizedEmail, emailConfirmed, passwordHash,
                securityStamp, lockoutEnd, lockoutEnabled, accessFailedCount, createdAtMs, newEtag);
    }

    /** Never prints the address or the hash: accounts end up in logs through toString more often than anyone plans. */
    @Override
    public String toString() {
        return "Account[" + id + "]";
    }
}
