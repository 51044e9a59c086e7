package dev.partita.core.request;

import java.util.Locale;

/**
 * The consistency level a request asks for ({@code x-ms-consistency-level}); {@link #ACCOUNT_DEFAULT} when it names
 * none. A single-region emulator serves every level from the same committed state; the level matters for price:
 * reads at Strong or Bounded Staleness read two replicas and cost double (capacity.md §1).
 */
public enum Consistency {
    ACCOUNT_DEFAULT, STRONG, BOUNDED_STALENESS, SESSION, CONSISTENT_PREFIX, EVENTUAL;

    /** The header value, any case; absent or unknown values mean the account default. */
    public static Consistency fromHeader(String value) {
        if (value == null) {
            return ACCOUNT_DEFAULT;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "strong" -> STRONG;
            case "boundedstaleness" -> BOUNDED_STALENESS;
            case "session" -> SESSION;
            case "consistentprefix" -> CONSISTENT_PREFIX;
            case "eventual" -> EVENTUAL;
            default -> ACCOUNT_DEFAULT;
        };
    }

    /** Whether a read at this level is served by a quorum of two replicas (and priced so). */
    public boolean readsQuorum() {
        return this == STRONG || this == BOUNDED_STALENESS;
    }
}
