/**
 * Reference system 1 (seed 000, "ADR-017"): unresolved message-processing failures tracked per endpoint in one
 * container keyed {@code /endpointId} then {@code /id}, reached only through an endpoint scope that puts the exact
 * endpoint predicate first; paced low-priority purges behind a small HTTP API; the migration from the legacy
 * per-endpoint containers behind a layout guard; and the report of cost and the hot-endpoint ceiling. Uses only the
 * official Java SDK; its tests run it against Partita.
 */
package dev.partita.examples.tracking;
