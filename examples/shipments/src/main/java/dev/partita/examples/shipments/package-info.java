/**
 * Reference system 4 (seed 004): a multi-tenant shipments store with one hot tenant, scaled 100:1. The nightly load
 * as an open-loop model, the 429s it meets per physical partition under two layouts, the throughput doubling, the
 * logical partition's 20 GB wall, the status view kept from the change feed, the client-side mitigations, and the
 * re-keying with {@code partita migrate} while writes continue. Uses only the official Java SDK.
 */
package dev.partita.examples.shipments;
