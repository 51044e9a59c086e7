package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/** {@code /dbs/{db}/colls} (create, list, query) and {@code /dbs/{db}/colls/{c}} (read, replace, delete). */
final class ContainerRoutes {
    private final RouteContext ctx;
    private final Access access;

    ContainerRoutes(RouteContext ctx, Access access) {
        this.ctx = ctx;
        this.access = access;
    }

    Reply feed(Exchange ex, ResourcePath path, Principal who) {
        Access.checkMasterOnly(who, "the list of containers");
        DatabaseInfo db = ctx.database(path);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "container body");
            ContainerInfo c = ctx.engine.createContainer(db.id(), body, ThroughputHeaders.parse(ex, ctx.engine.limits()), 0);
            return Replies.containerPaths(Replies.resource(201, c.toJson(), c.etag()), c);
        }
        if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.POST)) {
            List<ObjectNode> all = ctx.engine.listContainers(db.id()).stream().map(ContainerInfo::toJson).toList();
            return Replies.databasePaths(Replies.feedOrQuery(ex, "DocumentCollections", db.rid(), all), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = ctx.database(path);
        ContainerInfo c = ctx.container(path, db);
        access.checkContainer(who, ex, db, c, Access.Part.CONTAINER, null);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return Replies.containerPaths(Replies.resource(200, c.toJson(), c.etag()), c);
        }
        if (m.equals(HttpMethod.PUT)) {
            ObjectNode body = Json.parseObject(ex.body(), "container body");
            ContainerInfo after = ctx.engine.replaceContainer(db.id(), c.id(), body);
            return Replies.containerPaths(Replies.resource(200, after.toJson(), after.etag()), after);
        }
        if (m.equals(HttpMethod.DELETE)) {
            ctx.engine.deleteContainer(db.id(), c.id());
            return Replies.containerPaths(Reply.status(204), c);
        }
        throw Replies.methodNotAllowed(ex);
    }

    /** Stored procedures, triggers, functions and conflicts: empty feeds to read, nothing to create. */
    Reply unsupportedChildren(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = ctx.database(path);
        ContainerInfo c = ctx.container(path, db);
        access.checkContainer(who, ex, db, c, Access.Part.OTHER_CHILDREN, null);
        String type = path.seg(4);
        if (path.size() == 5 && (ex.method().equals(HttpMethod.GET) || ex.isQuery())) {
            String key = switch (type) {
                case "sprocs" -> "StoredProcedures";
                case "triggers" -> "Triggers";
                case "udfs" -> "UserDefinedFunctions";
                default -> "Conflicts";
            };
            return Replies.itemPaths(Replies.feed(ex, key, c.rid(), List.of()), c);
        }
        if (path.size() == 6 && ex.method().equals(HttpMethod.GET)) {
            throw dev.partita.core.error.ServiceException.notFound("The resource does not exist.");
        }
        throw dev.partita.core.error.ServiceException.badRequest("Stored procedures, triggers, user-defined functions and"
                + " conflicts are not supported by Partita.");
    }
}
