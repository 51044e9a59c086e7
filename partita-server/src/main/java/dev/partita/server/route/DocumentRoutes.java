package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.Json;
import dev.partita.core.ServiceException;
import dev.partita.core.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.item.BatchResult;
import dev.partita.core.item.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.Items;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.PlaceholderCharges;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Items: {@code POST .../docs} (create, upsert, transactional batch, bulk; queries go to {@link QueryRoutes}),
 * {@code GET .../docs} (feeds, also {@link QueryRoutes}) and {@code GET|PUT|DELETE|PATCH .../docs/{id}}.
 *
 * <p>The point-read hot path: path → auth → engine → the stored JSON bytes written as they are (no parsing, no copy).
 */
final class DocumentRoutes {
    private final RouteContext ctx;
    private final Access access;
    private final QueryRoutes queries;

    DocumentRoutes(RouteContext ctx, Access access, QueryRoutes queries) {
        this.ctx = ctx;
        this.access = access;
        this.queries = queries;
    }

    Reply feed(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = ctx.database(path);
        ContainerInfo c = ctx.container(path, db);
        access.checkContainer(who, ex, db, c, Access.Part.DOCS, null);
        checkIntendedContainer(ex, c);
        PhysicalPartition range = namedRange(ex, c);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return queries.readFeed(ex, db, c);
        }
        if (!m.equals(HttpMethod.POST)) {
            throw Replies.methodNotAllowed(ex);
        }
        if (ex.flag(Hdr.IS_QUERY_PLAN)) {
            return queries.queryPlan(ex, db, c);
        }
        if (ex.isQuery()) {
            return queries.query(ex, db, c);
        }
        Items items = ctx.engine.items(c);
        if (ex.flag(Hdr.IS_BATCH)) {
            return batch(ex, c, items, range);
        }
        byte[] body = ex.body();
        PartitionKeyValue pk = partitionKey(ex);
        Conditions conditions = conditions(ex);
        ItemResult r = ex.flag(Hdr.IS_UPSERT) ? items.upsert(pk, body, conditions) : items.create(pk, body, conditions);
        return itemReply(ex, c, r, true);
    }

    Reply one(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = ctx.database(path);
        ContainerInfo c = ctx.container(path, db);
        if (path.ridBased()) {
            throw ServiceException.badRequest("Items cannot be addressed by _rid; use the name-based path"
                    + " dbs/{db}/colls/{container}/docs/{id}.");
        }
        String id = path.seg(5);
        access.checkContainer(who, ex, db, c, Access.Part.DOC, id);
        checkIntendedContainer(ex, c);
        namedRange(ex, c);
        Items items = ctx.engine.items(c);
        PartitionKeyValue pk = partitionKey(ex);
        Conditions conditions = conditions(ex);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            return itemReply(ex, c, items.read(pk, id, conditions), false);
        }
        if (m.equals(HttpMethod.PUT)) {
            return itemReply(ex, c, items.replace(pk, id, ex.body(), conditions), true);
        }
        if (m.equals(HttpMethod.DELETE)) {
            return itemReply(ex, c, items.delete(pk, id, conditions), true);
        }
        if (m.equals(HttpMethod.PATCH)) {
            return itemReply(ex, c, items.patch(pk, id, ex.body(), conditions), true);
        }
        throw Replies.methodNotAllowed(ex);
    }

    private Reply batch(Exchange ex, ContainerInfo c, Items items, PhysicalPartition range) {
        byte[] body = ex.body();
        String atomicHeader = ex.header(Hdr.BATCH_ATOMIC);
        boolean atomic = atomicHeader == null ? ex.header(Hdr.PARTITION_KEY) != null : ex.flag(Hdr.BATCH_ATOMIC);
        BatchResult result = atomic ? items.batch(partitionKey(ex), body) : items.bulk(body);
        List<Boolean> reads = readFlags(body);
        int n = result.results().size();
        Reply r = Reply.json(result.allSucceeded() ? 200 : 207,
                result.toJson(ex.minimalReturn(), reads, PlaceholderCharges.WRITE));
        r.charge(PlaceholderCharges.WRITE * n);
        String rangeId = range != null ? range.id() : result.rangeId();
        if (result.lsn() >= 0 && rangeId != null) {
            r.header(Hdr.SESSION_TOKEN, rangeId + ":-1#" + result.lsn());
        }
        return Replies.itemPaths(r, c);
    }

    /** Which operations of a batch body are reads (their results keep a body under return=minimal). */
    private static List<Boolean> readFlags(byte[] body) {
        JsonNode ops = Json.parse(body, "batch body");
        List<Boolean> out = new ArrayList<>(ops.size());
        for (JsonNode op : ops) {
            out.add("read".equals(op.path("operationType").asText("").toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    private static Reply itemReply(Exchange ex, ContainerInfo c, ItemResult r, boolean write) {
        Reply reply = Reply.status(r.status());
        if (r.item() != null && r.status() != 304 && !(write && ex.minimalReturn())) {
            reply.body(r.item().bytes(), r.item().jsonOffset(), r.item().jsonLength());
        }
        reply.header(Hdr.ETAG, r.etag());
        if (r.rangeId() != null) {
            reply.header(Hdr.SESSION_TOKEN, r.sessionToken());
            reply.header(Hdr.PARTITION_KEY_RANGE_ID, r.rangeId());
        }
        reply.charge(write ? PlaceholderCharges.WRITE : PlaceholderCharges.READ);
        return Replies.itemPaths(reply, c);
    }

    /** 400/1024 when the client's cached container is not the current one (deleted and re-created under its name). */
    private static void checkIntendedContainer(Exchange ex, ContainerInfo c) {
        String intended = ex.header(Hdr.INTENDED_COLLECTION_RID);
        if (intended != null && !intended.isBlank() && !intended.trim().equals(c.rid())) {
            throw ServiceException.badRequest(SubStatus.STALE_CONTAINER_RID, "The container was replaced by a new one"
                    + " with the same name since the client cached it; refresh the container cache.");
        }
    }

    /** The partition key range the request names, if any; 410/1002 when it is gone (split). */
    private static PhysicalPartition namedRange(Exchange ex, ContainerInfo c) {
        String id = ex.header(Hdr.PARTITION_KEY_RANGE_ID);
        if (id == null || id.isBlank()) {
            return null;
        }
        // the SDK may send "<collRid>,<rangeId>" in some paths; the range id is the last part
        String rangeId = id.substring(id.lastIndexOf(',') + 1).trim();
        return c.partitions().byId(rangeId);
    }

    private static PartitionKeyValue partitionKey(Exchange ex) {
        String h = ex.header(Hdr.PARTITION_KEY);
        return h == null ? null : PartitionKeyValue.fromHeader(h);
    }

    private static Conditions conditions(Exchange ex) {
        String ifMatch = ex.header(Hdr.IF_MATCH);
        String ifNoneMatch = ex.header(Hdr.IF_NONE_MATCH);
        if (ifMatch == null && ifNoneMatch == null) {
            return Conditions.NONE;
        }
        return new Conditions(ifMatch, ifNoneMatch);
    }
}
