package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.request.Priority;
import dev.partita.core.item.BatchResult;
import dev.partita.core.item.BulkGate;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.Items;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
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
    private final Metering metering;

    DocumentRoutes(RouteContext ctx, Access access, QueryRoutes queries) {
        this.ctx = ctx;
        this.access = access;
        this.queries = queries;
        this.metering = new Metering(ctx.engine.capacity());
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
        ItemResult r = metering.run(ex, c, rangeFor(c, pk, range), () -> ex.flag(Hdr.IS_UPSERT)
                ? items.upsert(pk, body, conditions) : items.create(pk, body, conditions));
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
        PhysicalPartition named = namedRange(ex, c);
        Items items = ctx.engine.items(c);
        PartitionKeyValue pk = partitionKey(ex);
        Conditions conditions = conditions(ex);
        HttpMethod m = ex.method();
        String rangeId = rangeFor(c, pk, named);
        if (m.equals(HttpMethod.GET)) {
            return itemReply(ex, c, metering.run(ex, c, rangeId, () -> items.read(pk, id, conditions)), false);
        }
        if (m.equals(HttpMethod.PUT)) {
            byte[] body = ex.body();
            return itemReply(ex, c, metering.run(ex, c, rangeId, () -> items.replace(pk, id, body, conditions)),
                    true);
        }
        if (m.equals(HttpMethod.DELETE)) {
            return itemReply(ex, c, metering.run(ex, c, rangeId, () -> items.delete(pk, id, conditions)), true);
        }
        if (m.equals(HttpMethod.PATCH)) {
            byte[] body = ex.body();
            return itemReply(ex, c, metering.run(ex, c, rangeId, () -> items.patch(pk, id, body, conditions)), true);
        }
        throw Replies.methodNotAllowed(ex);
    }

    private Reply batch(Exchange ex, ContainerInfo c, Items items, PhysicalPartition range) {
        byte[] body = ex.body();
        String atomicHeader = ex.header(Hdr.BATCH_ATOMIC);
        boolean atomic = atomicHeader == null ? ex.header(Hdr.PARTITION_KEY) != null : ex.flag(Hdr.BATCH_ATOMIC);
        PartitionKeyValue pk = partitionKey(ex);
        String admitted = rangeFor(c, atomic ? pk : null, range);
        OperationCharges charges = new OperationCharges(ex, c, admitted);
        BatchResult result = metering.run(ex, c, admitted, () -> atomic ? items.batch(pk, body)
                : items.bulk(body, charges));
        List<Boolean> reads = readFlags(body);
        ArrayNode ops = result.toJson(ex.minimalReturn(), reads, 0);
        double total = 0;
        for (int i = 0; i < result.results().size(); i++) {
            BatchResult.OpResult op = result.results().get(i);
            double ru = atomic ? chargeOf(ex, op) : charges.of(i);
            ((ObjectNode) ops.get(i)).put("requestCharge", ru);
            total += ru;
        }
        String chargedRange = result.rangeId() != null ? result.rangeId() : admitted;
        // a bulk request's operations were charged one by one as they ran; an atomic batch is charged as a whole
        Reply r = Reply.json(result.allSucceeded() ? 200 : 207, ops).charge(atomic
                ? ctx.engine.capacity().charge(c, chargedRange, roundCharge(total)) : roundCharge(total));
        String rangeId = range != null ? range.id() : result.rangeId();
        if (result.lsn() >= 0 && rangeId != null) {
            r.header(Hdr.SESSION_TOKEN, rangeId + ":-1#" + result.lsn());
        }
        return Replies.itemPaths(r, c);
    }

    private double chargeOf(Exchange ex, BatchResult.OpResult op) {
        return op.isSuccess() || op.status() == 424 ? metering.price(ex, op.work())
                : ctx.engine.capacity().costs().failed(op.status());
    }

    /**
     * Bulk operations admitted and charged one at a time on their physical partition (the request itself was
     * admitted by {@link Metering#run}): once the partition's budget is spent the rest answer 429 with a retry-after,
     * and the SDK re-sends only those.
     */
    private final class OperationCharges implements BulkGate {
        private final Exchange ex;
        private final ContainerInfo c;
        private final String rangeId;
        private final Priority priority;
        private final List<Double> charges = new ArrayList<>();

        OperationCharges(Exchange ex, ContainerInfo c, String rangeId) {
            this.ex = ex;
            this.c = c;
            this.rangeId = rangeId;
            this.priority = Priority.fromHeader(ex.header(Hdr.PRIORITY_LEVEL));
        }

        @Override
        public ServiceException refusal() {
            if (charges.isEmpty()) {
                return null; // the first operation runs on the request's own admission
            }
            try {
                ctx.engine.capacity().admit(c, rangeId, priority);
                return null;
            } catch (ServiceException e) {
                return e;
            }
        }

        @Override
        public void ran(BatchResult.OpResult result) {
            charges.add(ctx.engine.capacity().charge(c, rangeId, chargeOf(ex, result)));
        }

        /** What operation {@code i} was charged: nothing if it never ran (throttled). */
        double of(int i) {
            return i < charges.size() ? charges.get(i) : 0;
        }
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

    /** Sums of per-operation charges, kept to hundredths as every charge is. */
    private static double roundCharge(double ru) {
        return Math.round(ru * 100) / 100.0;
    }

    /**
     * The physical partition a request runs on, for admission: the range it names, else its partition key's, else
     * null (the engine routes it; its budget is then the first partition's). An invalid key is left for the engine
     * to report.
     */
    private static String rangeFor(ContainerInfo c, PartitionKeyValue pk, PhysicalPartition named) {
        if (named != null) {
            return named.id();
        }
        if (pk == null) {
            return null;
        }
        try {
            return Capacity.rangeOf(c, pk).id();
        } catch (RuntimeException e) {
            return null;
        }
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
        metering.charged(reply, ex, c, r.rangeId(), r.work());
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
