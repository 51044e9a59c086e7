package dev.partita.core.store;

/**
 * An ordered key-value store: the only thing the engine asks of persistence.
 *
 * <p>Keys are compared as unsigned bytes. {@link #apply(WriteBatch)} is atomic: after a crash either all of a batch
 * is visible or none of it. Reads through the store itself see the latest applied batch; reads through a
 * {@link Snapshot} see the state at the moment the snapshot was taken.
 *
 * <p>Implementations are thread-safe: any number of threads may read, write and take snapshots at once. A reader never
 * observes part of a batch: a {@link #scan} or a {@link Snapshot} sees each batch entirely or not at all. (Two separate
 * {@link #get} calls on the store may straddle a batch; take a snapshot when several reads must agree.)
 */
public interface Store extends StoreReader, AutoCloseable {

    /**
     * Applies every operation of the batch atomically, in order (a later operation on the same key wins). When this
     * returns, the batch is visible to every later read and, for a durable store, survives a kill of the process.
     */
    void apply(WriteBatch batch);

    /**
     * A consistent, read-only view of the store as it is now. Cheap enough to take one per query page. Close it when
     * done: an open snapshot keeps the versions it can see alive.
     */
    Snapshot snapshot();

    /**
     * Whether no {@link #get} can ever wait (no disk, no lock): then {@link #getWithoutWaiting} always answers, and the
     * server may do any point lookup on its event loop (a resource token's permission, too). False unless the store
     * knows.
     */
    default boolean readsNeverBlock() {
        return false;
    }

    /**
     * {@link #get} if the store can answer from memory, without waiting for a disk or a lock held across one; else
     * {@link Lookup#WOULD_WAIT}, and the caller reads again where waiting is allowed. Lets the server answer a point
     * read on its event loop whenever the value is at hand. By default: {@link #get} when {@link #readsNeverBlock},
     * else always "would wait".
     */
    default Lookup getWithoutWaiting(byte[] key) {
        return readsNeverBlock() ? Lookup.of(get(key)) : Lookup.WOULD_WAIT;
    }

    /** Releases the store. Open snapshots and cursors become unusable; using the store afterwards fails. */
    @Override
    void close();
}
