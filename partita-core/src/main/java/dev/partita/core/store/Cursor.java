package dev.partita.core.store;

/**
 * Forward iteration over a key range. Call {@link #next()} before the first {@link #key()}; the arrays returned by
 * {@link #key()} and {@link #value()} stay valid after the cursor moves on.
 */
public interface Cursor extends AutoCloseable {
    boolean next();

    byte[] key();

    byte[] value();

    @Override
    void close();
}
