package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.request.ApiVersion;
import dev.partita.core.request.RequestOptions;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * {@code /dbs/{db}/colls} (create, list, query), {@code /dbs/{db}/colls/{c}} (read, with quota information when
 * asked; replace, delete) and its conflicts.
 */
final class ContainerRoutes {
    private final RouteContext ctx;

    ContainerRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply feed(Exchange ex, ResourcePath path) {
        DatabaseInfo db = ctx.database(path);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "container body");
            ContainerInfo c = ctx.engine.createContainer(db.id(), body, ThroughputHeaders.parse(ex), 0,
                    ApiVersion.fromHeader(ex.header(Hdr.API_VERSION)));
            return Replies.containerPaths(Replies.resource(201, c.toJson(), c.etag()), c);
        }
        if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.POST)) {
            List<ObjectNode> all = ctx.engine.listContainers(db.id()).stream().map(ContainerInfo::toJson).toList();
            return Replies.databasePaths(Replies.feedOrQuery(ctx.engine(), ex, "DocumentCollections", db.rid(), all), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path, RequestOptions options) {
        ContainerHandle container = ctx.engine.container(ctx.container(path, ctx.database(path)));
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET) && ex.flag(Hdr.POPULATE_QUOTA_INFO)) {
            ContainerHandle.Usage usage = container.usage(options);
            ContainerInfo c = usage.container();
            return QuotaHeaders.add(Replies.containerPaths(Replies.resource(200, c.toJson(), c.etag()), c), usage);
        }
        if (m.equals(HttpMethod.GET)) {
            ContainerInfo c = container.properties(options);
            return Replies.containerPaths(Replies.resource(200, c.toJson(), c.etag()), c);
        }
        if (m.equals(HttpMethod.PUT)) {
            ContainerInfo after = container.replaceProperties(Json.parseObject(ex.body(), "container body"), options);
            return Replies.containerPaths(Replies.resource(200, after.toJson(), after.etag()), after);
        }
        if (m.equals(HttpMethod.DELETE)) {
            ContainerInfo c = container.info();
            container.deleteContainer(options);
            return Replies.containerPaths(Reply.status(204), c);
        }
        throw Replies.methodNotAllowed(ex);
    }

    /** Conflicts (a single-region account has none): an empty feed to read, nothing to create. */
    Reply unsupportedChildren(Exchange ex, ResourcePath path, RequestOptions options) {
        ContainerInfo c = ctx.engine.container(ctx.container(path, ctx.database(path)))
                .scripts(options, !ex.isRead());
        if (path.size() == 5 && (ex.method().equals(HttpMethod.GET) || ex.isQuery())) {
            return Replies.itemPaths(Replies.feed(ex, "Conflicts", c.rid(), List.of()), c);
        }
        // reading or deleting a conflict is a documented operation of every SDK: there is none to find
        if (path.size() == 6 && (ex.method().equals(HttpMethod.GET) || ex.method().equals(HttpMethod.DELETE))) {
            throw ServiceException.notFound("The resource does not exist.");
        }
        throw ServiceException.badRequest("Conflicts are not supported by Partita: a single-region account has"
                + " none.");
    }
}
