package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.Offers;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * {@code /offers} (list, query — the SDK asks {@code select * from c where c.offerResourceId = @resourceId}) and
 * {@code /offers/{rid}} (read, replace with manual or autoscale throughput), protocol.md §9.
 */
final class OfferRoutes {
    private final RouteContext ctx;

    OfferRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply feed(Exchange ex) {
        if (!ex.method().equals(HttpMethod.GET) && !(ex.method().equals(HttpMethod.POST) && ex.isQuery())) {
            throw Replies.methodNotAllowed(ex);
        }
        List<ObjectNode> all = ctx.offers.list().stream().map(ctx.offers::toJson).toList();
        return Replies.feedOrQuery(ctx.engine(), ex, "Offers", "", all);
    }

    Reply one(Exchange ex, ResourcePath path) {
        String rid = path.seg(1);
        Offers.Offer offer;
        if (ex.method().equals(HttpMethod.GET)) {
            offer = ctx.offers.read(rid);
        } else if (ex.method().equals(HttpMethod.PUT)) {
            offer = ctx.offers.replace(rid, Json.parseObject(ex.body(), "offer body"));
        } else {
            throw Replies.methodNotAllowed(ex);
        }
        return Replies.resource(200, ctx.offers.toJson(offer), offer.etag())
                .header(Hdr.MIN_THROUGHPUT, Integer.toString(offer.minThroughput()))
                .header(Hdr.OFFER_REPLACE_PENDING, Boolean.toString(ctx.offers.replacePending(offer)));
    }
}
