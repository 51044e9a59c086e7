/**
 * Persistence: the {@link dev.partita.core.store.Store} SPI (ordered keys, atomic batches, snapshots), its two
 * implementations ({@code MemoryStore} for tests and the JUnit extension, {@code RocksStore} for the server), the
 * key order ({@code Bytes}: unsigned, as RocksDB compares, and the one long codec), the key layout ({@code StoreKeys}),
 * the change-log record format ({@code ChangeRecord}) and bounded chunked rewrites ({@code ChunkedWriter}). Both implementations
 * pass one contract test suite ({@code StoreContractTest}). Depends on nothing else in the engine; everything else may
 * depend on it.
 */
package dev.partita.core.store;
