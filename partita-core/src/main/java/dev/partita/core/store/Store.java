package dev.partita.core.store;

/**
 * An ordered key-value store: the only thing the engine asks of persistence.
 *
 * <p>Keys are compared as unsigned bytes. {@link #apply(WriteBatch)} is atomic: after a crash either all of a batch
 * is visible or none of it. Reads through the store itself see the latest applied batch; reads through a
 * {@link Snapshot} see the state at the moment the snapshot was taken.
 */
public interface Store extends StoreReader, AutoCloseable {

    /** Applies every operation of the batch atomically. When this returns, the batch survives a process kill. */
    void apply(WriteBatch batch);

    /** A consistent, read-only view of the store as it is now. Close it when done. */
    Snapshot snapshot();

    @Override
    void close();
}
