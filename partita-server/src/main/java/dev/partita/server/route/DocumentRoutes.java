package dev.partita.server.route;

import dev.partita.core.ContainerHandle;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.item.BatchResult;
import dev.partita.core.item.ItemResult;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.SessionToken;
import dev.partita.core.script.Triggers;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;

/**
 * Items: {@code POST .../docs} (create, upsert, transactional batch, bulk; queries go to {@link QueryRoutes}),
 * {@code GET .../docs} (feeds, also {@link QueryRoutes}) and {@code GET|PUT|DELETE|PATCH .../docs/{id}}. Each is one
 * call of the container's handle; this class only picks it and encodes the result.
 *
 * <p>The point-read hot path: path → auth → engine → the stored JSON bytes written as they are (no parsing, no copy).
 */
final class DocumentRoutes {
    private final RouteContext ctx;
    private final QueryRoutes queries;

    DocumentRoutes(RouteContext ctx, QueryRoutes queries) {
        this.ctx = ctx;
        this.queries = queries;
    }

    Reply feed(Exchange ex, ResourcePath path, RequestOptions o) {
        ContainerHandle container = handle(ex, path);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return queries.readFeed(ex, container, o);
        }
        if (!m.equals(HttpMethod.POST)) {
            throw Replies.methodNotAllowed(ex);
        }
        if (ex.flag(Hdr.IS_QUERY_PLAN)) {
            return queries.queryPlan(ex, container, o);
        }
        if (ex.isQuery()) {
            return queries.query(ex, container, o);
        }
        if (ex.flag(Hdr.IS_BATCH)) {
            return batch(ex, container, o);
        }
        byte[] body = ex.body();
        Triggers triggers = triggers(ex);
        ItemResult r = !triggers.isEmpty()
                ? ctx.engine.scripts(container.info()).write(ex.flag(Hdr.IS_UPSERT) ? Triggers.Operation.UPSERT
                        : Triggers.Operation.CREATE, null, body, triggers, o)
                : ex.flag(Hdr.IS_UPSERT) ? container.upsert(body, o) : container.create(body, o);
        return itemReply(ex, container.info(), r, true);
    }

    Reply one(Exchange ex, ResourcePath path, RequestOptions o) {
        ContainerHandle container = handle(ex, path);
        // a rid-based path (an item's _self) names the item by its rid, which the engine resolves to its id
        String id = path.ridBased() ? container.idOfRid(path.seg(5), o) : path.seg(5);
        HttpMethod m = ex.method();
        ItemResult r;
        Triggers triggers = triggers(ex);
        if (!triggers.isEmpty() && (m.equals(HttpMethod.PUT) || m.equals(HttpMethod.DELETE))) {
            r = ctx.engine.scripts(container.info()).write(m.equals(HttpMethod.PUT) ? Triggers.Operation.REPLACE
                    : Triggers.Operation.DELETE, id, m.equals(HttpMethod.PUT) ? ex.body() : null, triggers, o);
        } else if (m.equals(HttpMethod.GET)) {
            return itemReply(ex, container.info(), container.read(id, o), false);
        } else if (m.equals(HttpMethod.PUT)) {
            r = container.replace(id, ex.body(), o);
        } else if (m.equals(HttpMethod.DELETE)) {
            r = container.delete(id, o);
        } else if (m.equals(HttpMethod.PATCH)) {
            r = container.patch(id, ex.body(), o);
        } else {
            throw Replies.methodNotAllowed(ex);
        }
        return itemReply(ex, container.info(), r, true);
    }

    /**
     * A point read ({@code GET .../docs/{id}}) as {@link #one} answers it, when the engine can answer it without
     * waiting ({@link ContainerHandle#readWithoutWaiting}); else null.
     */
    Reply readWithoutWaiting(Exchange ex, ResourcePath path, RequestOptions o) {
        if (path.ridBased()) {
            return null; // resolving the rid reads the logical partition's items
        }
        ContainerHandle container = ctx.engine.containerWithoutWaiting(container(ex, path));
        ItemResult r = container == null ? null : container.readWithoutWaiting(path.seg(5), o);
        return r == null ? null : itemReply(ex, container.info(), r, false);
    }

    /** Whether a {@code POST .../docs} is a create or upsert without triggers (not a query, batch or bulk). */
    static boolean isPlainWrite(Exchange ex) {
        return !ex.flag(Hdr.IS_QUERY_PLAN) && !ex.isQuery() && !ex.flag(Hdr.IS_BATCH) && triggers(ex).isEmpty();
    }

    /**
     * A create or upsert ({@link #isPlainWrite}) as {@link #feed} answers it, when the engine can run it without
     * waiting ({@link ContainerHandle#writeWithoutWaiting}); else null.
     */
    Reply writeWithoutWaiting(Exchange ex, ResourcePath path, RequestOptions o) {
        ContainerHandle container = ctx.engine.containerWithoutWaiting(container(ex, path));
        ItemResult r = container == null ? null : container.writeWithoutWaiting(ex.body(), ex.flag(Hdr.IS_UPSERT), o);
        return r == null ? null : itemReply(ex, container.info(), r, true);
    }

    /** The pre- and post-triggers the request includes (none for most). */
    private static Triggers triggers(Exchange ex) {
        return Triggers.named(ex.header(Hdr.PRE_TRIGGER_INCLUDE), ex.header(Hdr.POST_TRIGGER_INCLUDE));
    }

    /** A transactional batch when the request names a partition key (or says atomic), else bulk. */
    private Reply batch(Exchange ex, ContainerHandle container, RequestOptions o) {
        String atomicHeader = ex.header(Hdr.BATCH_ATOMIC);
        boolean atomic = atomicHeader == null ? o.partitionKey() != null : ex.flag(Hdr.BATCH_ATOMIC);
        // bulk continues after a failed operation unless the request says otherwise (the SDKs send the header)
        String continueHeader = ex.header(Hdr.BATCH_CONTINUE_ON_ERROR);
        boolean continueOnError = continueHeader == null || !continueHeader.trim().equalsIgnoreCase("false");
        BatchResult result = atomic ? container.batch(ex.body(), o) : container.bulk(ex.body(), continueOnError, o);
        Reply r = Reply.status(result.allSucceeded() ? 200 : 207).body(result.toJson(ex.minimalReturn()))
                .charge(result.requestCharge());
        String rangeId = o.scope().rangeId() != null ? o.scope().rangeId() : result.rangeId();
        if (result.lsn() >= 0 && rangeId != null) {
            r.header(Hdr.SESSION_TOKEN, SessionToken.of(rangeId, result.lsn()));
        }
        return Replies.itemPaths(r, container.info());
    }

    private Reply itemReply(Exchange ex, ContainerInfo c, ItemResult r, boolean write) {
        Reply reply = Reply.status(r.status());
        if (r.item() != null && r.status() != 304 && !(write && ex.minimalReturn())) {
            reply.body(r.item().bytes(), r.item().jsonOffset(), r.item().jsonLength());
        }
        reply.header(Hdr.ETAG, r.etag());
        if (r.rangeId() != null) {
            reply.header(Hdr.SESSION_TOKEN, r.sessionToken());
            reply.header(Hdr.PARTITION_KEY_RANGE_ID, r.rangeId());
        }
        return Replies.itemPaths(reply.charge(r.requestCharge()), c);
    }

    /** The container's handle; 400/1024 when the client's cached container is not the current one. */
    private ContainerHandle handle(Exchange ex, ResourcePath path) {
        return ctx.engine.container(container(ex, path));
    }

    /** The container the path names, checked against the one the client means (its cached rid). */
    private ContainerInfo container(Exchange ex, ResourcePath path) {
        ContainerInfo c = ctx.container(path, ctx.database(path));
        String intended = ex.header(Hdr.INTENDED_COLLECTION_RID);
        if (intended != null && !intended.isBlank() && !intended.trim().equals(c.rid())) {
            throw ServiceException.badRequest(SubStatus.STALE_CONTAINER_RID, "The container was replaced by a new one"
                    + " with the same name since the client cached it; refresh the container cache.");
        }
        return c;
    }
}
