package dev.partita.server.route;

import dev.partita.core.ContainerHandle;
import dev.partita.core.item.ItemResult;
import dev.partita.core.request.RequestOptions;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;

/**
 * {@code POST /dbs/{db}/colls/{c}/operations/partitionkeydelete} with the partition key header and an empty body (Java
 * SDK {@code deleteAllItemsByPartitionKey}, JS {@code container.deleteAllItemsForPartitionKey}): 200 and no body once
 * the partition's items are gone for reads; the engine removes them in the background.
 */
final class PartitionKeyDeleteRoutes {
    private final RouteContext ctx;

    PartitionKeyDeleteRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply handle(Exchange ex, ResourcePath path, RequestOptions o) {
        if (!ex.method().equals(HttpMethod.POST)) {
            throw Replies.methodNotAllowed(ex);
        }
        ContainerHandle container = ctx.engine.container(ctx.container(path, ctx.database(path)));
        ItemResult r = container.deleteAllItemsByPartitionKey(o);
        Reply reply = Reply.status(r.status()).charge(r.requestCharge())
                .header(Hdr.SESSION_TOKEN, r.sessionToken());
        return Replies.itemPaths(reply, container.info());
    }
}
