package dev.partita.server.route;

import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Offers;
import dev.partita.core.account.Permission;
import dev.partita.core.account.Users;
import dev.partita.core.error.ServiceException;
import dev.partita.server.auth.ResourceTokens;

/**
 * What the route handlers share: the engine (and its offers and users), the token minter, and the lookups of
 * databases, containers, users and permissions by name or by {@code _rid}.
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

    /** The id of the user named by segment 3 of a path whose database is {@code db}. */
    String userId(ResourcePath path, DatabaseInfo db) {
        return path.ridBased() ? users.userByRid(db, path.seg(3)).id() : path.seg(3);
    }

    /** The id of the permission named by segment 5 of a path whose database is {@code db} and user {@code userId}. */
    String permissionId(ResourcePath path, DatabaseInfo db, String userId) {
        if (!path.ridBased()) {
            return path.seg(5);
        }
        Permission p = users.permissionByRid(path.seg(5));
        if (p == null || !p.databaseRid().equals(db.rid()) || !p.userId().equals(userId)) {
            throw ServiceException.notFound("The permission does not exist.");
        }
        return p.id();
    }
}
