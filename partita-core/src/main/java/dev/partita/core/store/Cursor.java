package dev.partita.core.store;

/**
 * Iteration over a key range, in the order the scan asked for (ascending or descending). Call {@link #next()} before the first {@link #key()}; the arrays returned by
 * {@link #key()} and {@link #value()} stay valid after the cursor moves on (so results can be collected without
 * copying). A cursor belongs to one thread at a time. Closing is idempotent; an exhausted cursor has already released
 * what it held, but closing it is still correct and expected.
 */
public interface Cursor extends AutoCloseable {
    /** Moves to the next entry; {@code false} once the range is exhausted (and on every call after that). */
    boolean next();

    byte[] key();

    byte[] value();

    @Override
    void close();
}
