package dev.partita.core.request;

import dev.partita.core.error.ServiceException;

/**
 * The consistency level a request asks for ({@code x-ms-consistency-level}), or an account's default level;
 * {@link #ACCOUNT_DEFAULT} when a request names none. A single-region emulator serves every level from the same
 * committed state; the level matters for what a request may ask and for price: a request may only relax the account's
 * default (400 otherwise, capacity.md §6), and reads at Strong or Bounded Staleness read two replicas and cost double
 * (capacity.md §1).
 */
public enum Consistency {
    ACCOUNT_DEFAULT(null), STRONG("Strong"), BOUNDED_STALENESS("BoundedStaleness"), SESSION("Session"),
    CONSISTENT_PREFIX("ConsistentPrefix"), EVENTUAL("Eventual");

    private final String wireName;

    Consistency(String wireName) {
        this.wireName = wireName;
    }

    /** The service's name of the level ({@code BoundedStaleness}), as headers and the account's properties spell it. */
    public String wireName() {
        return wireName;
    }

    /** A request's header value, any case; absent means the account default, anything unknown is a 400. */
    public static Consistency fromHeader(String value) {
        if (value == null || value.isBlank()) {
            return ACCOUNT_DEFAULT;
        }
        Consistency level = named(value);
        if (level == null) {
            throw ServiceException.badRequest("Invalid value for the header 'x-ms-consistency-level': '"
                    + value.strip() + "'. Valid values are Strong, BoundedStaleness, Session, Eventual and"
                    + " ConsistentPrefix.");
        }
        return level;
    }

    /** A level by its name, any case ({@code Strong}, {@code BoundedStaleness}, ...), or null when it names none. */
    public static Consistency named(String name) {
        String n = name.strip();
        for (Consistency c : values()) {
            if (c.wireName != null && c.wireName.equalsIgnoreCase(n)) {
                return c;
            }
        }
        return null;
    }

    /**
     * The level a request asking for this one reads at in an account whose default is {@code account}: the account's
     * when it asks for none. A request may not strengthen the account's level: Strong only under Strong, Bounded
     * Staleness under Strong or itself, and Session, Consistent Prefix and Eventual under any (the rule of the Java
     * SDK's {@code Utils.isValidConsistency}, which the SDK wins on); a stronger ask is a 400.
     */
    public Consistency under(Consistency account) {
        if (this == ACCOUNT_DEFAULT) {
            return account;
        }
        boolean allowed = switch (this) {
            case STRONG -> account == STRONG;
            case BOUNDED_STALENESS -> account == STRONG || account == BOUNDED_STALENESS;
            default -> true;
        };
        if (!allowed) {
            throw ServiceException.badRequest("ConsistencyLevel " + wireName + " specified in the request is invalid"
                    + " when service is configured with consistency level " + account.wireName + ". Ensure the"
                    + " request consistency level is not stronger than the service consistency level.");
        }
        return this;
    }

    /** Whether a read at this level is served by a quorum of two replicas (and priced so). */
    public boolean readsQuorum() {
        return this == STRONG || this == BOUNDED_STALENESS;
    }
}
