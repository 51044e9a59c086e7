package dev.partita.server.auth;

import dev.partita.core.account.Permission;

/** Who a request acts as, once its authorization header checked out. */
public sealed interface Principal {

    /** Authorization is off ({@code --no-auth}): everything is allowed. */
    record Anyone() implements Principal {
    }

    /** A master key: {@code readOnly} for the read-only pair, which may read but not write. */
    record MasterKey(boolean readOnly) implements Principal {
    }

    /** A resource token minted from {@code permission}; it reaches only that permission's resource. */
    record ResourceToken(Permission permission) implements Principal {
    }
}
