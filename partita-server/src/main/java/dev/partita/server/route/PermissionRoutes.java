package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Permission;
import dev.partita.server.auth.ResourceTokens;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * {@code /dbs/{db}/users/{u}/permissions} and {@code .../permissions/{p}}. Every permission the server returns carries
 * a fresh resource token in {@code _token}, valid for {@code x-ms-documentdb-expiry-seconds} (default one hour).
 */
final class PermissionRoutes {
    private final RouteContext ctx;

    PermissionRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply feed(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        String user = ctx.userId(path, db);
        long expiry = expiry(ex);
        if (ex.method().equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "permission body");
            if (ex.flag(Hdr.IS_UPSERT)) {
                boolean[] created = new boolean[1];
                Permission p = ctx.users.upsertPermission(db, user, body, created);
                return reply(created[0] ? 201 : 200, p, expiry, db);
            }
            return reply(201, ctx.users.createPermission(db, user, body), expiry, db);
        }
        if (ex.method().equals(HttpMethod.GET) || ex.method().equals(HttpMethod.POST)) {
            List<Permission> perms = ctx.users.listPermissions(db, user);
            List<ObjectNode> all = perms.stream().map(p -> p.toJson(ctx.tokens.mint(p.rid(), expiry))).toList();
            String userRid = ctx.users.readUser(db, user).rid();
            return Replies.databasePaths(Replies.feedOrQuery(ctx.engine(), ex, "Permissions", userRid, all), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        String user = ctx.userId(path, db);
        String id = ctx.permissionId(path, db, user);
        long expiry = expiry(ex);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return reply(200, ctx.users.readPermission(db, user, id), expiry, db);
        }
        if (m.equals(HttpMethod.PUT)) {
            ObjectNode body = Json.parseObject(ex.body(), "permission body");
            return reply(200, ctx.users.replacePermission(db, user, id, body), expiry, db);
        }
        if (m.equals(HttpMethod.DELETE)) {
            ctx.users.deletePermission(db, user, id);
            return Replies.databasePaths(Reply.status(204), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    /** When tokens handed out by this request expire (epoch seconds). */
    private long expiry(Exchange ex) {
        int seconds = ex.intHeader(Hdr.EXPIRY_SECONDS, ResourceTokens.DEFAULT_EXPIRY_SECONDS);
        if (seconds < ResourceTokens.MIN_EXPIRY_SECONDS || seconds > ResourceTokens.MAX_EXPIRY_SECONDS) {
            throw ServiceException.badRequest("x-ms-documentdb-expiry-seconds must be between "
                    + ResourceTokens.MIN_EXPIRY_SECONDS + " and " + ResourceTokens.MAX_EXPIRY_SECONDS + ".");
        }
        return ctx.engine.clock().instant().getEpochSecond() + seconds;
    }

    private Reply reply(int status, Permission p, long expiry, DatabaseInfo db) {
        return Replies.databasePaths(Replies.resource(status, p.toJson(ctx.tokens.mint(p.rid(), expiry)), p.etag()),
                db);
    }
}
