/**
 * One handler class per resource type, in the flat style of cosmium: account, databases, containers, partition key
 * ranges, documents (point operations, batch, bulk), offers, users, permissions, and {@code QueryRoutes} for document
 * queries and feeds. {@link dev.partita.server.route.Router} parses the path, authenticates, resolves names or
 * {@code _rid}s and dispatches. Handlers translate headers and bodies into engine calls and results into replies; the
 * rules themselves live in the engine.
 */
package dev.partita.server.route;
