/**
 * Query execution: a query over a {@link dev.partita.core.request.Scope} (physical partition, logical partition,
 * container), paging with
 * continuation tokens, the SDK's query plans, and index use: a sargable filter on an indexed path reads candidates
 * from the index instead of scanning the scope, ORDER BY on document paths walks the first key's index in order, and
 * ORDER BY is refused where the service's index could not serve it. Without ORDER BY a scope's items come in
 * document (rid, creation) order as the service answers them, for scopes of up to a few thousand items. A client's
 * whole-container query that needs the SDK's pipeline across partitions is sent back with its plan, as the gateway
 * does ({@link dev.partita.core.query.GatewayServable}).
 * The language itself (parsing, evaluation, which predicates are sargable) is {@code partita-sql}'s; this package
 * decides which items it sees.
 */
package dev.partita.core.query;
