package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerScripts;
import dev.partita.core.ScriptResult;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.SessionToken;
import dev.partita.core.script.ScriptKind;
import dev.partita.core.script.ScriptResource;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code .../colls/{c}/sprocs|triggers|udfs} (create, list, query) and {@code .../{kind}/{id}} (read, replace, delete;
 * {@code POST .../sprocs/{id}} executes the stored procedure with a JSON array of parameters in the logical partition
 * of {@code x-ms-documentdb-partitionkey}). Each is one call of the container's scripts.
 */
final class ScriptRoutes {
    private final RouteContext ctx;

    ScriptRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply handle(Exchange ex, ResourcePath path, RequestOptions o) {
        ScriptKind kind = ScriptKind.ofPath(path.seg(4));
        ContainerInfo c = ctx.container(path, ctx.database(path));
        ContainerScripts scripts = ctx.engine.scripts(c);
        HttpMethod m = ex.method();
        if (path.size() == 5) {
            if (m.equals(HttpMethod.POST) && !ex.isQuery()) {
                ScriptResource s = scripts.create(kind, Json.parseObject(ex.body(), kind.noun()), o);
                return resource(201, s, c);
            }
            if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.POST)) {
                List<ObjectNode> all = scripts.list(kind, o).stream().map(s -> s.toJson(c)).toList();
                return Replies.itemPaths(Replies.feedOrQuery(ctx.engine(), ex, kind.feedKey(), c.rid(), all), c);
            }
            throw Replies.methodNotAllowed(ex);
        }
        String id = scriptId(scripts, kind, path, o, c);
        if (m.equals(HttpMethod.GET)) {
            return resource(200, scripts.read(kind, id, o), c);
        }
        if (m.equals(HttpMethod.PUT)) {
            return resource(200, scripts.replace(kind, id, Json.parseObject(ex.body(), kind.noun()), o), c);
        }
        if (m.equals(HttpMethod.DELETE)) {
            scripts.delete(kind, id, o);
            return Replies.itemPaths(Reply.status(204), c);
        }
        if (m.equals(HttpMethod.POST) && kind == ScriptKind.STORED_PROCEDURE) {
            return execute(ex, scripts, id, o, c);
        }
        throw Replies.methodNotAllowed(ex);
    }

    private Reply execute(Exchange ex, ContainerScripts scripts, String id, RequestOptions o, ContainerInfo c) {
        ScriptResult r = scripts.execute(id, ex.hasBody() ? ex.body() : null, ex.flag(Hdr.SCRIPT_ENABLE_LOGGING), o);
        Reply reply = Reply.status(200);
        if (r.body() != null) {
            reply.body(r.body().getBytes(StandardCharsets.UTF_8)).header(Hdr.CONTENT_TYPE, "application/json");
        }
        if (r.log() != null) {
            reply.header(Hdr.SCRIPT_LOG_RESULTS, URLEncoder.encode(r.log(), StandardCharsets.UTF_8)
                    .replace("+", "%20"));
        }
        reply.header(Hdr.SESSION_TOKEN, SessionToken.of(r.rangeId(), r.lsn()));
        return Replies.itemPaths(reply.charge(r.requestCharge()), c);
    }

    /** The script's id: the path names it, or on rid-based paths its {@code _rid}. */
    private static String scriptId(ContainerScripts scripts, ScriptKind kind, ResourcePath path, RequestOptions o,
            ContainerInfo c) {
        String seg = path.seg(5);
        if (!path.ridBased()) {
            return seg;
        }
        return scripts.list(kind, o).stream().filter(s -> s.rid().equals(seg)).map(ScriptResource::id).findFirst()
                .orElseThrow(() -> ServiceException.notFound("The " + kind.noun() + " does not exist."));
    }

    private static Reply resource(int status, ScriptResource s, ContainerInfo c) {
        return Replies.itemPaths(Replies.resource(status, s.toJson(c), s.etag()), c);
    }
}
