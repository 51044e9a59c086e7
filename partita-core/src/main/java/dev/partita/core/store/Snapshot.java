package dev.partita.core.store;

/**
 * A read-only point-in-time view of a {@link Store}: lets a query read several pages, or an index lookup and the
 * items it points to, from one consistent state while writes go on. Closing it is idempotent and lets the store
 * discard the old versions it was holding.
 */
public interface Snapshot extends StoreReader, AutoCloseable {
    @Override
    void close();
}
