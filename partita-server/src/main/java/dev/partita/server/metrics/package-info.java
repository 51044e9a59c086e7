/**
 * Prometheus metrics at {@code /metrics} (Micrometer): requests by operation and status (429s apart) and their
 * latency per operation, recorded around the router ({@link dev.partita.server.metrics.MeteredDispatcher}); request
 * charge, 429s, storage, items and budget per physical partition and splits per container, read from the engine's
 * statistics at each scrape ({@link dev.partita.server.metrics.PartitionSeries}). Labels are low-cardinality: account,
 * database, container, partition key range id, operation, status; never partition key values or item ids. The page
 * holds no data, so it is served without the account key.
 */
package dev.partita.server.metrics;
