package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.User;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/** {@code /dbs/{db}/users} (create, upsert, list, query) and {@code /dbs/{db}/users/{u}} (read, replace, delete). */
final class UserRoutes {
    private final RouteContext ctx;

    UserRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply feed(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        if (ex.method().equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "user body");
            if (ex.flag(Hdr.IS_UPSERT)) {
                boolean[] created = new boolean[1];
                User u = ctx.users.upsertUser(db, body, created);
                return reply(created[0] ? 201 : 200, u, db);
            }
            return reply(201, ctx.users.createUser(db, body), db);
        }
        if (ex.method().equals(HttpMethod.GET) || ex.method().equals(HttpMethod.POST)) {
            List<ObjectNode> all = ctx.users.listUsers(db).stream().map(User::toJson).toList();
            return Replies.databasePaths(Replies.feedOrQuery(ctx.engine(), ex, "Users", db.rid(), all), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        String id = ctx.userId(path, db);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return reply(200, ctx.users.readUser(db, id), db);
        }
        if (m.equals(HttpMethod.PUT)) {
            return reply(200, ctx.users.replaceUser(db, id, Json.parseObject(ex.body(), "user body")), db);
        }
        if (m.equals(HttpMethod.DELETE)) {
            ctx.users.deleteUser(db, id);
            return Replies.databasePaths(Reply.status(204), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    private static Reply reply(int status, User u, DatabaseInfo db) {
        return Replies.databasePaths(Replies.resource(status, u.toJson(), u.etag()), db);
    }
}
