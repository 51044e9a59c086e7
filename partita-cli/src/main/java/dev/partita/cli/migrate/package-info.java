/**
 * {@code partita migrate}: copies a live container into a new one with another partition key and/or indexing policy,
 * catches up with the writes made meanwhile, verifies both sides and writes a cutover marker. Like the other data
 * tools it talks to the account only through the official SDK (so it works against Partita and a real account alike)
 * and never writes the source. Depends on the SDK, picocli, Jackson, and {@code cli.tools.AccountOptions} for the
 * connection.
 */
package dev.partita.cli.migrate;
