/**
 * The Partita engine: a plain Java API for an emulated Cosmos DB account, usable in-process. {@link
 * dev.partita.core.Engine} is the entry point; {@link dev.partita.core.error.ServiceException} is the one error type.
 * Depends on {@code partita-sql} for the query language; never on the server.
 */
package dev.partita.core;
