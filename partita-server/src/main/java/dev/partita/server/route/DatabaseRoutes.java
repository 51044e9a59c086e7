package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/** {@code /dbs} (create, list, query) and {@code /dbs/{db}} (read, delete). */
final class DatabaseRoutes {
    private final RouteContext ctx;

    DatabaseRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply feed(Exchange ex) {
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "database body");
            DatabaseInfo db = ctx.engine.createDatabase(body, ThroughputHeaders.parse(ex));
            return Replies.databasePaths(Replies.resource(201, db.toJson(), db.etag()), db);
        }
        if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.POST)) {
            List<ObjectNode> all = ctx.engine.listDatabases().stream().map(DatabaseInfo::toJson).toList();
            return Replies.feedOrQuery(ctx.engine(), ex, "Databases", "", all);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        if (ex.method().equals(HttpMethod.GET)) {
            return Replies.databasePaths(Replies.resource(200, db.toJson(), db.etag()), db);
        }
        if (ex.method().equals(HttpMethod.DELETE)) {
            ctx.engine.deleteDatabase(db.id());
            return Replies.databasePaths(Reply.status(204), db);
        }
        throw Replies.methodNotAllowed(ex);
    }
}
