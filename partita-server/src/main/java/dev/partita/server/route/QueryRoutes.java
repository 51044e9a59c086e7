package dev.partita.server.route;

import dev.partita.core.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;

/**
 * Document queries and feeds — the one place they reach the gateway:
 * <ul>
 *   <li>{@link #queryPlan}: {@code POST .../docs} with {@code x-ms-cosmos-is-query-plan-request: True} (query-plans.md);
 *   <li>{@link #query}: {@code POST .../docs} with {@code x-ms-documentdb-isquery: true} (or
 *       {@code Content-Type: application/query+json}), scoped by {@code x-ms-documentdb-partitionkeyrangeid},
 *       {@code x-ms-documentdb-partitionkey} or {@code x-ms-start-epk}/{@code x-ms-end-epk};
 *   <li>{@link #readFeed}: {@code GET .../docs} — the change feed when {@code A-IM} is present (feeds-batch.md §1–3),
 *       else a plain read feed.
 * </ul>
 * Authentication, the resource-token scope, the intended-collection-rid and gone-range checks have run before these
 * are called; the container is resolved. NOT IMPLEMENTED YET: every method answers 400 until the query engine is wired.
 */
public final class QueryRoutes {
    private final RouteContext ctx;

    QueryRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    /** The engine and registries, for the implementation to come. */
    RouteContext context() {
        return ctx;
    }

    Reply queryPlan(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        throw notYet();
    }

    Reply query(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        throw notYet();
    }

    Reply readFeed(Exchange ex, DatabaseInfo db, ContainerInfo c) {
        throw notYet();
    }

    private static ServiceException notYet() {
        return ServiceException.badRequest("Queries are not implemented yet");
    }
}
