package dev.partita.core.store;

/**
 * What a read that may not wait ({@link Store#getWithoutWaiting}) found: the value, no value, or that answering would
 * have to wait (for the disk).
 *
 * @param value     the value stored under the key, or null when there is none (or when it would wait)
 * @param wouldWait whether the store could not answer without waiting; then {@code value} means nothing
 */
public record Lookup(byte[] value, boolean wouldWait) {
    /** The store could not answer from memory: read with {@link StoreReader#get} where waiting is allowed. */
    public static final Lookup WOULD_WAIT = new Lookup(null, true);
    private static final Lookup ABSENT = new Lookup(null, false);

    /** The answer {@link StoreReader#get} gave: the value, or null for none. */
    public static Lookup of(byte[] value) {
        return value == null ? ABSENT : new Lookup(value, false);
    }
}
