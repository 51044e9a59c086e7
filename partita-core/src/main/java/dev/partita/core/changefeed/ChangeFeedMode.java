package dev.partita.core.changefeed;

/** The two change-feed modes of the service (capacity.md §4). */
public enum ChangeFeedMode {
    /**
     * Creates and replaces only: each item once, at the LSN of its latest write since the start point; deletes leave
     * no trace (on the wire: {@code A-IM: Incremental Feed}).
     */
    LATEST_VERSION,
    /**
     * Every create, replace and delete, TTL expirations marked as such, within the retention window (on the wire:
     * {@code A-IM: Full-Fidelity Feed}).
     */
    ALL_VERSIONS_AND_DELETES
}
