/**
 * Reference system 3 (seed 003): choosing a used-vehicle catalogue's partition key. The record's generator (200 seed
 * vehicles expanded deterministically), the tuned and default indexing policies, bulk seeding with its totals, the
 * seven queries with their charge, time and partitions touched, and the report that sets them beside the record's
 * figures. Uses only the official Java SDK.
 */
package dev.partita.examples.catalogue;
