package dev.partita.server.http;

/**
 * PLACEHOLDER request charges, sent as {@code x-ms-request-charge} until the capacity work (CostModel in
 * {@code core.capacity}) prices each operation from the work it actually did. They only make the header present
 * and plausible; nothing should depend on their values. The capacity issue replaces this class.
 */
public final class PlaceholderCharges {
    private PlaceholderCharges() {
    }

    /** PLACEHOLDER charge of a read, query page or feed page. */
    public static final double READ = 1.0;
    /** PLACEHOLDER charge of a write (and of each write inside a batch). */
    public static final double WRITE = 5.0;
}
