/**
 * One handler class per resource type, in the flat style of cosmium: account, databases, containers, partition key
 * ranges, documents (point operations, batch, bulk), offers, users, permissions, and {@code QueryRoutes} for document
 * queries and feeds. {@link dev.partita.server.route.Router} parses the path, authenticates, resolves names or
 * {@code _rid}s and dispatches; {@code RequestHeaders} decodes headers into the engine's request options. Each handler
 * makes one engine call (on the container's handle for anything inside a container) and encodes its result: routing,
 * admission, pricing, authorization scope and every rule live in the engine.
 */
package dev.partita.server.route;
