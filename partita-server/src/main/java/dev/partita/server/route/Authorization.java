package dev.partita.server.route;

import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.request.AccessScope;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;

/**
 * What an authenticated principal may do, as far as the gateway decides it: read-only keys write nothing; databases,
 * offers, users and permissions need an account key. Everything inside a container is the engine's to check, against
 * the principal's {@link AccessScope} ({@link #scope}), which travels with each request's options.
 */
final class Authorization {
    private final RouteContext ctx;

    Authorization(RouteContext ctx) {
        this.ctx = ctx;
    }

    /** A master key reaches everything; a resource token what its permission names. */
    AccessScope scope(Principal who) {
        if (who instanceof Principal.ResourceToken t) {
            return ctx.users.scopeOf(t.permission());
        }
        return AccessScope.UNRESTRICTED;
    }

    /** Read-only keys write nothing. */
    static void checkWrite(Principal who, Exchange ex) {
        if (who instanceof Principal.MasterKey m && m.readOnly() && !ex.isRead()) {
            throw ServiceException.forbidden(SubStatus.WRITE_FORBIDDEN_READ_ONLY_KEY,
                    "A read-only key cannot change anything; sign writes with a read-write key.");
        }
    }

    /** Account-level resources (databases, offers, users, permissions) need a master key. */
    static void checkMasterOnly(Principal who, String what) {
        if (who instanceof Principal.ResourceToken) {
            throw forbidden("A resource token cannot access " + what + "; it reaches only its permission's resource.");
        }
    }

    /**
     * Client encryption keys are written with an account key only; a resource token may read the keys of its own
     * database, which client-side encryption needs to encrypt and decrypt the items the token reaches.
     */
    void checkEncryptionKeys(Principal who, Exchange ex, DatabaseInfo db) {
        if (who instanceof Principal.ResourceToken) {
            if (!ex.isRead()) {
                throw forbidden("A resource token cannot create or change client encryption keys; use an account key.");
            }
            if (!db.id().equals(scope(who).databaseId())) {
                throw forbidden("A resource token reaches only the client encryption keys of its own database.");
            }
        }
    }

    /** Permissions hold resource tokens, so read-only keys may not read them either. */
    static void checkPermissionsAccess(Principal who) {
        checkMasterOnly(who, "users and permissions");
        if (who instanceof Principal.MasterKey m && m.readOnly()) {
            throw forbidden("A read-only key cannot read permissions (they carry resource tokens).");
        }
    }

    private static ServiceException forbidden(String message) {
        return ServiceException.forbidden(0, message);
    }
}
