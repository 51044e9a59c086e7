package dev.partita.server.auth;

import dev.partita.core.error.ServiceException;
import dev.partita.core.account.Permission;
import dev.partita.core.account.Users;
import dev.partita.server.Keys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Checks a request's {@code authorization} header: a master-key signature over (verb, resource type, resource link,
 * dates) against the two read-write and the two read-only keys, within the allowed clock skew of {@code x-ms-date},
 * or a resource token minted here (time-bound by its own expiry, so it needs no date). Every failure is a 401 whose
 * message says what to fix; none repeats the header. Write refusal for read-only keys and the scope of
 * resource tokens are decided by the caller, which knows the resolved resource.
 */
public final class Authenticator {
    private final boolean noAuth;
    private final Clock clock;
    private final Duration skew;
    private final Users users;
    private final ResourceTokens tokens;
    private final String[] readWrite;
    private final String[] readOnly;
    private volatile ParsedDate lastDate;

    public Authenticator(Keys keys, boolean noAuth, Clock clock, Duration skew, Users users, ResourceTokens tokens) {
        this.noAuth = noAuth;
        this.clock = clock;
        this.skew = skew;
        this.users = users;
        this.tokens = tokens;
        this.readWrite = new String[] {keys.primary(), keys.secondary()};
        this.readOnly = new String[] {keys.readOnlyPrimary(), keys.readOnlySecondary()};
    }

    /**
     * @param verb         the HTTP method
     * @param resourceType the signing segment ({@code dbs}, {@code colls}, {@code docs}, ..., {@code ""} for the account)
     * @param resourceLink the signing link as the SDK computes it (before its lower-casing rule)
     */
    public Principal authenticate(String verb, String authorization, String xmsDate, String httpDate,
            String resourceType, String resourceLink) {
        if (noAuth) {
            return new Principal.Anyone();
        }
        AuthHeader auth = AuthHeader.parse(authorization);
        if (authorization == null || authorization.isBlank()) {
            throw unauthorized("The request has no authorization header. Sign it with the account key"
                    + " (type=master) or send a resource token (type=resource).");
        }
        if (auth == null) {
            throw unauthorized("The authorization header is malformed; expected the URL-encoded form of"
                    + " type=<master|resource>&ver=1.0&sig=<signature>.");
        }
        return switch (auth.type()) {
            case "master" -> {
                checkDate(xmsDate, httpDate);
                yield master(auth, verb, resourceType, resourceLink, xmsDate, httpDate);
            }
            // no date check: a resource token signs no date (it carries its own expiry), and the service takes
            // resource-token requests without x-ms-date, which is what the JavaScript SDK sends
            case "resource" -> resource(auth);
            case "aad" -> throw unauthorized("Entra ID (AAD) tokens are not supported by Partita; use the account key"
                    + " or a resource token.");
            default -> throw unauthorized("The authorization type must be 'master' or 'resource'.");
        };
    }

    /**
     * Whether {@link #authenticate} reads the store for this {@code authorization} header: a resource token's
     * permission is looked up there (so that deleting it revokes its tokens at once).
     */
    public boolean readsStore(String authorization) {
        AuthHeader auth = noAuth ? null : AuthHeader.parse(authorization);
        return auth != null && auth.type().equals("resource");
    }

    private Principal master(AuthHeader auth, String verb, String type, String link, String xmsDate,
            String httpDate) {
        String text = MasterKeySignature.stringToSign(verb, type, link, xmsDate, httpDate);
        for (String key : readWrite) {
            if (MasterKeySignature.same(MasterKeySignature.sign(key, text), auth.signature())) {
                return new Principal.MasterKey(false);
            }
        }
        for (String key : readOnly) {
            if (MasterKeySignature.same(MasterKeySignature.sign(key, text), auth.signature())) {
                return new Principal.MasterKey(true);
            }
        }
        throw unauthorized("The input authorization token can't serve the request: the signature matches none of"
                + " the account keys. Either the key is wrong, or the client signed another string than the server"
                + " expects (verb '" + verb.toLowerCase(java.util.Locale.ROOT) + "', resource type '" + type
                + "', and the resource link taken from the request path).");
    }

    private Principal resource(AuthHeader auth) {
        ResourceTokens.Claims claims = tokens.verify(auth.signature());
        if (claims == null) {
            throw unauthorized("The resource token is not valid; read the permission again to get a current token.");
        }
        if (claims.expiresAtEpochSeconds() <= clock.instant().getEpochSecond()) {
            throw unauthorized("The resource token has expired; read the permission again to get a new token.");
        }
        Permission p = users.permissionByRid(claims.permissionRid());
        if (p == null) {
            throw unauthorized("The resource token's permission no longer exists.");
        }
        return new Principal.ResourceToken(p);
    }

    private void checkDate(String xmsDate, String httpDate) {
        String date = xmsDate != null && !xmsDate.isBlank() ? xmsDate : httpDate;
        if (date == null || date.isBlank()) {
            throw unauthorized("The request has no x-ms-date header; send the current time in RFC 1123 format.");
        }
        Instant sent = parsedDate(date);
        // in milliseconds, not Durations: Duration.abs() of a negative offset multiplies through a BigDecimal
        long offMillis = Math.abs(sent.toEpochMilli() - clock.millis());
        if (offMillis > skew.toMillis()) {
            throw unauthorized("The x-ms-date header is " + offMillis / 1000 + " seconds away from the server's"
                    + " clock; at most " + skew.toSeconds() + " seconds are allowed. Check the client's clock.");
        }
    }

    /**
     * The instant of an {@code x-ms-date}; the last one parsed is kept, since an SDK's date changes once a second and
     * parsing RFC 1123 costs more than the rest of a point read's authentication.
     */
    private Instant parsedDate(String date) {
        ParsedDate last = lastDate;
        if (last != null && last.text.equals(date)) {
            return last.instant;
        }
        Instant sent;
        try {
            sent = ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw unauthorized("The x-ms-date header is not an RFC 1123 date such as 'Tue, 01 Jul 2025 12:00:00 GMT'.");
        }
        lastDate = new ParsedDate(date, sent);
        return sent;
    }

    private record ParsedDate(String text, Instant instant) {
    }

    private static ServiceException unauthorized(String message) {
        return new ServiceException(401, 0, message);
    }
}
