/**
 * The items of a container and how they are written: {@link dev.partita.core.item.Items} runs point operations,
 * patch, transactional batch and bulk on partition keys already routed; each write is one
 * {@link dev.partita.core.item.WriteTxn} under the container's writer lock, committing the item (as the client's
 * bytes plus system properties, {@link dev.partita.core.item.StoredItem}), the entries kept beside it
 * ({@link dev.partita.core.item.ItemEntries}: unique keys, TTL, index terms, partition size) and its change-log record
 * in one store batch. TTL ({@code Expiry}) and index rebuilds ({@code Reindexer}) live here too. No prices, no
 * admission, no authorization: those are the engine's container handle's. Depends on {@code account},
 * {@code index}, {@code partition}, {@code store}, {@code request} and {@code capacity.Work} (what an operation did).
 */
package dev.partita.core.item;
