package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.request.RequestOptions;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /dbs/{db}/colls/{c}/pkranges} (protocol.md §4). With {@code A-IM: Incremental Feed} (SDK 4.76+) the
 * response carries an etag naming the current partition map and a request with {@code If-None-Match} equal to it gets
 * 304; after a split the etag changes and the answer lists the current ranges, the children naming their parent.
 * Without A-IM (older SDKs) every range comes back with no continuation.
 */
final class PartitionKeyRangeRoutes {
    private final RouteContext ctx;

    PartitionKeyRangeRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply handle(Exchange ex, ResourcePath path, RequestOptions options) {
        ContainerInfo c = ctx.engine.container(ctx.container(path, ctx.database(path))).properties(options);
        if (!ex.method().equals(HttpMethod.GET) || path.size() != 5) {
            throw Replies.methodNotAllowed(ex);
        }
        // nextRangeId grows with every split (and any future merge), so it names the map's version
        String etag = "\"" + c.nextRangeId() + "\"";
        String a = ex.header(Hdr.A_IM);
        String ifNoneMatch = ex.header(Hdr.IF_NONE_MATCH);
        if (a != null && a.toLowerCase(java.util.Locale.ROOT).contains("incremental") && etag.equals(ifNoneMatch)) {
            return Replies.itemPaths(Reply.status(304).header(Hdr.ETAG, etag), c);
        }
        byte[] collRid = ResourceIds.tryDecode(c.rid());
        List<ObjectNode> ranges = new ArrayList<>();
        for (PhysicalPartition p : c.partitions().partitions()) {
            long id = Long.parseLong(p.id());
            String rid = ResourceIds.encode(ResourceIds.partitionKeyRange(collRid, id + 1));
            ObjectNode o = Json.object();
            o.put("_rid", rid);
            o.put("id", p.id());
            o.put("_etag", Etags.of(c.containerId(), id + 1));
            o.put("minInclusive", p.minInclusive());
            o.put("maxExclusive", p.maxExclusive());
            o.put("ridPrefix", id);
            o.put("_self", c.selfLink() + "pkranges/" + rid + "/");
            o.put("throughputFraction", 1.0 / c.partitions().size());
            o.put("status", "online");
            ArrayNode parents = o.putArray("parents");
            p.parents().forEach(parents::add);
            o.put("_ts", c.ts());
            o.put("lsn", ctx.engine.lsn(c));
            ranges.add(o);
        }
        Reply r = Replies.feed(ex, "PartitionKeyRanges", c.rid(), ranges);
        return Replies.itemPaths(r.header(Hdr.ETAG, etag), c);
    }
}
