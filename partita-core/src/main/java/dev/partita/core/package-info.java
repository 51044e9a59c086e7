/**
 * The Partita engine: a plain Java API for an emulated Cosmos DB account, usable in-process. {@link
 * dev.partita.core.Engine} is the entry point (databases, containers, offers, users); {@link
 * dev.partita.core.ContainerHandle} runs each request of a container through the whole lifecycle — authorize, route
 * once, admit, run, price, charge — so the gateway and in-process callers get the same charges and 429s. Beside them:
 * partition splits and the background upkeep (TTL sweep, change-log pruning). This package ties the others together
 * and may depend on all of them; none of them depends on it. Depends on {@code partita-sql} for the query language;
 * never on the server.
 */
package dev.partita.core;
