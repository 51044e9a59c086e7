package dev.partita.core.store;

/** A read-only point-in-time view of a {@link Store}. */
public interface Snapshot extends StoreReader, AutoCloseable {
    @Override
    void close();
}
