/**
 * The gateway: the Cosmos DB REST protocol over Netty. {@link dev.partita.server.PartitaServer} starts it over an
 * {@link dev.partita.core.Engine}; {@link dev.partita.server.ServerOptions} and {@link dev.partita.server.Keys} say how.
 * Subpackages: {@code http} (the Netty pipeline, request and reply types), {@code auth} (master-key signatures,
 * read-only keys, resource tokens), {@code tls} (the self-signed certificate), {@code route} (one handler class per
 * resource type). The gateway holds no business rules: it decodes, authenticates, calls the engine and encodes.
 * Depends on {@code partita-core}; nothing in core depends on it.
 */
package dev.partita.server;
