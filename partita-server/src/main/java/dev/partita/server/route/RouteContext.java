package dev.partita.server.route;

import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Offers;
import dev.partita.core.account.Users;
import dev.partita.core.error.ServiceException;
import dev.partita.server.auth.ResourceTokens;

/**
 * What the route handlers share: the engine (and its offers and users), the token minter, and the lookups of
 * databases and containers by name or by {@code _rid}.
 */
public final class RouteContext {
    final Engine engine;
    final Offers offers;
    final Users users;
    final ResourceTokens tokens;

    public RouteContext(Engine engine, ResourceTokens tokens) {
        this.engine = engine;
        this.offers = engine.offers();
        this.users = engine.users();
        this.tokens = tokens;
    }

    public Engine engine() {
        return engine;
    }

    /** The database named by segment 1 (an id, or a rid on rid-based paths). */
    DatabaseInfo database(ResourcePath path) {
        return path.ridBased() ? engine.databaseByRid(path.seg(1)) : engine.readDatabase(path.seg(1));
    }

    /** The container named by segment 3 of a path whose database is {@code db}. */
    ContainerInfo container(ResourcePath path, DatabaseInfo db) {
        if (path.ridBased()) {
            ContainerInfo c = engine.containerByRid(path.seg(3));
            if (!c.databaseRid().equals(db.rid())) {
                throw ServiceException.notFound("The container does not exist.");
            }
            return c;
        }
        return engine.readContainer(db.id(), path.seg(3));
    }
}
