package dev.partita.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.CostModel;
import dev.partita.core.capacity.Work;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.BatchResult;
import dev.partita.core.item.ItemResult;
import dev.partita.core.item.Items;
import dev.partita.core.item.PartitionSizes;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.query.GatewayContinuation;
import dev.partita.core.query.GatewayServable;
import dev.partita.core.query.IndexUtilization;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.AccessScope;
import dev.partita.core.request.Consistency;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.request.SessionToken;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One container's requests, each through the whole lifecycle: authorize ({@link AccessScope}) → route (partition key
 * → EPK → physical partition, once) → admit (the partition's budget and priority; 429 with retry-after) → run →
 * price (the cost model, on the work actually done) → charge. Results carry their request charge, session token,
 * range id and LSN; a refused request throws a {@link ServiceException} that carries its charge.
 *
 * <p>Obtained from {@link Engine#container}; cheap to create, thread-safe, and always current (it follows replaces
 * and splits, and answers 404 once the container is deleted).
 */
public final class ContainerHandle {
    private final Engine engine;
    private final Items items;
    private final Capacity capacity;
    private final CostModel costs;

    ContainerHandle(Engine engine, Items items, Capacity capacity) {
        this.engine = engine;
        this.items = items;
        this.capacity = capacity;
        this.costs = capacity.costs();
    }

    /** The container's current catalog entry. */
    public ContainerInfo info() {
        return items.container();
    }

    // ---- the container itself

    /** The container's properties; any resource token for the container or an item in it may read them. */
    public ContainerInfo properties(RequestOptions o) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), false);
        return c;
    }

    /**
     * A container's properties with what it stores, for reads that ask for quota information.
     *
     * @param quotaBytes what its physical partitions hold before they split ({@link Limits#maxPhysicalPartitionBytes()}
     *                   each), reported as its storage quota
     */
    public record Usage(ContainerInfo container, PartitionSizes.Total stored, long quotaBytes) {
    }

    /** The container's properties and its items and their bytes, read from its partitions' size records. */
    public Usage usage(RequestOptions o) {
        ContainerInfo c = properties(o);
        return new Usage(c, items.stored(), c.partitions().size() * engine.limits().maxPhysicalPartitionBytes());
    }

    /** Replaces the container's properties (management: account keys only). */
    public ContainerInfo replaceProperties(ObjectNode body, RequestOptions o) {
        ContainerInfo c = properties(o);
        o.access().checkManagement();
        return engine.replaceContainer(c.databaseId(), c.id(), body);
    }

    /** Deletes the container and its data (management: account keys only). */
    public void deleteContainer(RequestOptions o) {
        ContainerInfo c = properties(o);
        o.access().checkManagement();
        engine.deleteContainer(c.databaseId(), c.id());
    }

    /** Checks the caller may reach the container's script resources (stored procedures, triggers, functions). */
    public ContainerInfo scripts(RequestOptions o, boolean write) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), write);
        o.access().checkChild(write);
        return c;
    }

    // ---- point operations

    public ItemResult read(String id, RequestOptions o) {
        ContainerInfo c = authorizeItem(o, id, false);
        KeyRoute at = itemRoute(c, id, o);
        requireSession(List.of(at.range()), o);
        return priced(c, at, o, () -> items.read(at, id, o.conditions()));
    }

    /**
     * {@link #read} when it can be answered without waiting, else null: the server answers such a read on its event
     * loop. It would wait when the store does not have the item's key in memory, or when a fault rule is in force (a
     * delay sleeps the thread). On null nothing was spent (no fault hit, no admission, no charge) and the caller calls
     * {@link #read} where waiting is allowed; otherwise the answer, its charge and its refusals are exactly
     * {@link #read}'s.
     */
    public ItemResult readWithoutWaiting(String id, RequestOptions o) {
        ContainerInfo c = authorizeItem(o, id, false);
        KeyRoute at = route(c, o.partitionKey(), o);
        if (!engine.faults().none() || o.access().namesItemByRid()) {
            return null;
        }
        requireSession(List.of(at.range()), o);
        // no rule was in force when this read began, so none applies to it: it skips the faults step
        Supplier<ItemResult> answer = items.readWithoutWaiting(at, id, o.conditions());
        return answer == null ? null : charged(c, at, o, answer);
    }

    /**
     * The id of the item a rid-based path names ({@code dbs/{rid}/colls/{rid}/docs/{rid}}, an item's {@code _self}),
     * found in the logical partition of {@code o.partitionKey()}: 404 when no live item there has that rid, 400 when
     * the rid is no document rid of this container.
     */
    public String idOfRid(String docRid, RequestOptions o) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), false);
        byte[] rid = ResourceIds.tryDecode(docRid);
        byte[] own = ResourceIds.tryDecode(c.rid());
        if (rid == null || rid.length != ResourceIds.document(own, 0).length
                || !Arrays.equals(rid, 0, own.length, own, 0, own.length)) {
            throw ServiceException.badRequest("The path names no document of this container: " + docRid
                    + " is not one of its document rids.");
        }
        KeyRoute at = route(c, o.partitionKey(), o);
        String id = items.idOfRidSequence(at, ResourceIds.childSequence(rid));
        if (id == null) {
            // a session read that has not caught up reports its miss as 1002, as every session read does (the Java
            // SDK's ConsistencyTests2.validateSessionTokenMultiPartitionCollection reads a _self so)
            requireSession(List.of(at.range()), o);
            throw ServiceException.itemNotFound();
        }
        return id;
    }

    public ItemResult create(byte[] body, RequestOptions o) {
        return write(body, false, o);
    }

    public ItemResult upsert(byte[] body, RequestOptions o) {
        return write(body, true, o);
    }

    private ItemResult write(byte[] body, boolean upsert, RequestOptions o) {
        ContainerInfo c = authorizeAll(o, true);
        ObjectNode doc = Items.parseItem(body);
        KeyRoute at = routeWrite(c, doc, o);
        return priced(c, at, o, () -> written(at, doc, body, upsert, o));
    }

    private ItemResult written(KeyRoute at, ObjectNode doc, byte[] body, boolean upsert, RequestOptions o) {
        return upsert ? items.upsert(at, doc, body, o.conditions()) : items.create(at, doc, body);
    }

    /**
     * {@link #create} ({@link #upsert} if {@code upsert}) when it can run without waiting, else null: the server
     * answers such a write on its event loop. It would wait on a store that writes to disk, under a fault rule (a
     * delay sleeps), or for its partition's writer when another write holds it. The writer is found from the
     * partition key the request names (the SDKs always name one) before the body is parsed, so a request naming none,
     * or one refused on its way to the writer, is left to {@link #create} too, which answers it in its own order. On
     * null nothing was spent; otherwise the answer, its charge and its refusals are exactly {@link #create}'s. What it
     * may still wait for is CPU work on memory that other writers hold as briefly: the container's LSN record and the
     * memory store's apply, each a short critical section.
     */
    public ItemResult writeWithoutWaiting(byte[] body, boolean upsert, RequestOptions o) {
        if (o.partitionKey() == null || !engine.store().readsNeverBlock() || !engine.faults().none()) {
            return null;
        }
        ContainerInfo c;
        KeyRoute at;
        try {
            c = authorizeAll(o, true);
            o.access().checkPartitionKey(o.partitionKey());
            at = route(c, o.partitionKey(), o);
        } catch (ServiceException e) {
            return null;
        }
        // no rule was in force when this write began, so none applies to it: it skips the faults step
        return items.ifWriterFree(at.epk(), () -> {
            ObjectNode doc = Items.parseItem(body);
            return charged(c, at, o, () -> written(at, doc, body, upsert, o));
        });
    }

    public ItemResult replace(String id, byte[] body, RequestOptions o) {
        ContainerInfo c = authorizeItem(o, id, true);
        KeyRoute at = itemRoute(c, id, o);
        return priced(c, at, o, () -> items.replace(at, id, body, o.conditions()));
    }

    public ItemResult delete(String id, RequestOptions o) {
        ContainerInfo c = authorizeItem(o, id, true);
        KeyRoute at = itemRoute(c, id, o);
        return priced(c, at, o, () -> items.delete(at, id, o.conditions()));
    }

    public ItemResult patch(String id, byte[] body, RequestOptions o) {
        ContainerInfo c = authorizeItem(o, id, true);
        KeyRoute at = itemRoute(c, id, o);
        return priced(c, at, o, () -> items.patch(at, id, body, o.conditions()));
    }

    /**
     * Deletes every item of the logical partition {@code o.partitionKey()} (the full key; a hierarchical prefix is
     * 400/1001): 200 at once, the items gone for reads, queries, the change feed and re-creates from now on, and
     * removed in the background within a share of the partition's throughput ({@link Engine#removeDeletedItems}).
     */
    public ItemResult deleteAllItemsByPartitionKey(RequestOptions o) {
        ContainerInfo c = authorizeAll(o, true);
        o.access().checkPartitionKey(o.partitionKey());
        KeyRoute at = route(c, o.partitionKey(), o);
        return priced(c, at, o, () -> items.deletePartition(at));
    }

    // ---- batch and bulk

    /**
     * A transactional batch in the logical partition of {@code o.partitionKey()}: admitted and charged as one
     * request, every operation priced on its own (a failed batch's operations are priced as failures, 424s free).
     */
    public BatchResult batch(byte[] body, RequestOptions o) {
        ContainerInfo c = authorizeAll(o, true);
        o.access().checkPartitionKey(o.partitionKey());
        KeyRoute at = route(c, o.partitionKey(), o);
        BatchResult result = metered(c, at.range().id(), o, () -> items.batch(at, body));
        List<BatchResult.OpResult> charged = new ArrayList<>(result.results().size());
        double total = 0;
        for (BatchResult.OpResult op : result.results()) {
            double ru = op.isSuccess() || op.status() == 424 ? price(op.work(), o) : costs.failed(op.status());
            charged.add(op.withCharge(ru));
            total += ru;
        }
        double sum = roundCharge(total);
        capacity.charge(c, at, sum);
        return result.withCharges(charged, sum);
    }

    /**
     * Bulk operations, each in its own logical partition and admitted, authorized and charged one at a time on its
     * own physical partition: once a partition's budget is spent the remaining operations answer 429 with a
     * retry-after (the SDK re-sends only those); if the first operation is refused, the whole request is.
     */
    public BatchResult bulk(byte[] body, RequestOptions o) {
        return bulk(body, true, o);
    }

    /** {@link #bulk(byte[], RequestOptions)}; unless {@code continueOnError}, operations after a failure get 424. */
    public BatchResult bulk(byte[] body, boolean continueOnError, RequestOptions o) {
        ContainerInfo c = authorizeAll(o, true);
        namedRange(c, o);
        BulkCharges gate = new BulkCharges(this, capacity, c, o);
        BatchResult result = items.bulk(body, continueOnError, gate);
        return result.withCharges(result.results(), roundCharge(gate.total()));
    }

    // ---- queries and feeds

    /** The SDK's query plan (query-plans.md); computed by the gateway, it draws on no partition's budget. */
    public ObjectNode queryPlan(String text, Map<String, JsonNode> params, Set<String> supportedFeatures,
            RequestOptions o) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), false);
        return engine.reads().queryPlan(c, text, params, supportedFeatures);
    }

    /** One page of a query over {@code o.scope()}, from {@code o.continuation()}, at most {@code o.maxItemCount()}. */
    public QueryPage query(String text, Map<String, JsonNode> params, RequestOptions o) {
        ContainerInfo c = authorizeScope(o);
        Scope.Target target = o.scope().target(c.partitionKey(), c.partitions(), engine.limits());
        String admitted = target.container() ? null : target.owner().id();
        requireSession(target.container() ? c.partitions().partitions() : List.of(target.owner()), o);
        QueryPage page = metered(c, admitted, o, () -> engine.reads().runQuery(c, o.scope(), text, params,
                o.continuation(), o.maxItemCount()));
        String charged = page.rangeId() != null ? page.rangeId() : admitted;
        // a page not scoped to one partition (never from the SDK, which sends one request per range) ran on all
        int touched = charged == null ? c.partitions().size() : 1;
        double ru = capacity.charge(c, charged, costs.price(page.work(), quorum(o), touched));
        String tokenRange = page.rangeId() != null ? page.rangeId() : c.partitions().partitions().get(0).id();
        return page.charged(ru, SessionToken.of(tokenRange, engine.lsn(c)));
    }

    /**
     * {@link #query} as the gateway serves a client's request: a whole-container query that needs the SDK's pipeline
     * across partitions is the service's 400 with the plan instead ({@link GatewayServable}); one the gateway runs
     * itself carries its continuation in the service's wrapped form ({@link GatewayContinuation}).
     */
    public QueryPage clientQuery(String text, Map<String, JsonNode> params, RequestOptions o) {
        ContainerInfo c = authorizeScope(o);
        if (!o.scope().equals(Scope.CONTAINER)) {
            return query(text, params, o);
        }
        GatewayServable.check(c, engine.reads().parseQuery(text), params);
        QueryPage page = query(text, params, o.withContinuation(GatewayContinuation.unwrap(o.continuation())));
        return page.withContinuation(GatewayContinuation.wrap(page.continuation()));
    }

    /**
     * {@link #query}, with the index metrics the SDKs ask for ({@code populateIndexMetrics}): which indexes the
     * query's filter and ordering used, and which it would have used had the policy had them.
     */
    public QueryPage queryWithIndexMetrics(String text, Map<String, JsonNode> params, RequestOptions o) {
        QueryPage page = clientQuery(text, params, o);
        return page.withIndexUtilization(IndexUtilization.of(engine.reads().parseQuery(text), params,
                info().indexingPolicy()));
    }

    /** A page of the plain read feed ({@code SELECT * FROM c}) over {@code o.scope()}. */
    public QueryPage readFeed(RequestOptions o) {
        return query("SELECT * FROM c", Map.of(), o);
    }

    /**
     * One page of the change feed over {@code o.scope()} from {@code start}; an empty page means nothing newer (the
     * gateway's 304).
     */
    public ChangeFeedPage changeFeed(ChangeFeedStart start, ChangeFeedMode mode, RequestOptions o) {
        ContainerInfo c = authorizeScope(o);
        Scope.Target target = o.scope().target(c.partitionKey(), c.partitions(), engine.limits());
        String admitted = target.container() ? null : target.owner().id();
        ChangeFeedPage page = metered(c, admitted, o, () -> engine.reads().readChangeFeed(c, o.scope(), start,
                o.maxItemCount(), mode));
        return page.withCharge(capacity.charge(c, admitted, price(page.work(), o)));
    }

    // ---- the lifecycle's steps

    ContainerInfo authorizeItem(RequestOptions o, String id, boolean write) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), write);
        level(o);
        o.access().checkItem(id);
        o.access().checkPartitionKey(o.partitionKey());
        return c;
    }

    /**
     * The route of the item {@code id}; when the caller's permission names its item by rid (a resource token made
     * for an item's {@code _self} link), the stored item {@code id} must be that one (403 otherwise, or when there
     * is none, as for an item the permission does not name).
     */
    private KeyRoute itemRoute(ContainerInfo c, String id, RequestOptions o) {
        KeyRoute at = route(c, o.partitionKey(), o);
        if (o.access().namesItemByRid()) {
            o.access().checkItemRid(items.ridOf(at, id));
        }
        return at;
    }

    ContainerInfo authorizeAll(RequestOptions o, boolean write) {
        ContainerInfo c = info();
        o.access().checkContainer(c.databaseId(), c.id(), write);
        level(o);
        o.access().checkAllItems();
        return c;
    }

    private ContainerInfo authorizeScope(RequestOptions o) {
        ContainerInfo c = authorizeAll(o, false);
        o.access().checkPartitionKey(o.scope().partitionKey());
        return c;
    }

    /** A session read's 404/1002 when its session token is ahead of the partitions it reads (capacity.md §6). */
    private void requireSession(List<PhysicalPartition> partitions, RequestOptions o) {
        if (o.sessionToken() != null && level(o) == Consistency.SESSION) {
            SessionToken.requireCaughtUp(o.sessionToken(), partitions, items.lsn());
        }
    }

    /** Routes a point operation's partition key, after checking the range the request names still exists. */
    KeyRoute route(ContainerInfo c, PartitionKeyValue pk, RequestOptions o) {
        namedRange(c, o);
        return KeyRoute.of(c.partitionKey(), c.partitions(), pk, engine.limits());
    }

    /** A write routes by the key the request names, or by the item's own when it names none; either is checked. */
    KeyRoute routeWrite(ContainerInfo c, ObjectNode doc, RequestOptions o) {
        PartitionKeyValue pk = o.partitionKey() != null ? o.partitionKey()
                : PartitionKeyValue.extract(c.partitionKey(), doc);
        o.access().checkPartitionKey(pk);
        return route(c, pk, o);
    }

    /** 410/1002 when the request names a partition key range that is gone (split). */
    private static void namedRange(ContainerInfo c, RequestOptions o) {
        if (o.scope().rangeId() != null) {
            c.partitions().byId(o.scope().rangeId());
        }
    }

    private ItemResult priced(ContainerInfo c, KeyRoute at, RequestOptions o, Supplier<ItemResult> operation) {
        injectFaults(c, at.range().id());
        return charged(c, at, o, operation);
    }

    /** Admits, runs and charges a point operation; the faults step is the caller's. */
    private ItemResult charged(ContainerInfo c, KeyRoute at, RequestOptions o, Supplier<ItemResult> operation) {
        ItemResult r;
        try {
            r = admitted(c, at.range().id(), o, operation);
        } catch (ServiceException e) {
            if (e.status() == 404 || e.status() == 409 || e.status() == 412) {
                // the partition answered: its session token comes with the refusal, as with the service
                throw e.withSessionToken(SessionToken.of(at.range().id(), items.lsn()));
            }
            throw e;
        }
        return r.withCharge(capacity.charge(c, at, price(r.work(), o)));
    }

    /** Applies the injected faults, then admits the request on {@code rangeId} and runs it; failures are charged. */
    <T> T metered(ContainerInfo c, String rangeId, RequestOptions o, Supplier<T> operation) {
        injectFaults(c, rangeId);
        return admitted(c, rangeId, o, operation);
    }

    /** Throws the error of an injected fault that fires on this request, or waits out its delay. */
    private void injectFaults(ContainerInfo c, String rangeId) {
        try {
            engine.faults().apply(c.databaseId(), c.id(), rangeId);
        } catch (ServiceException injected) {
            throw injected.charged(0); // an injected fault is neither admitted nor charged
        }
    }

    /** Admits the request on {@code rangeId} (429 when its budget is spent), then runs it; failures are charged. */
    private <T> T admitted(ContainerInfo c, String rangeId, RequestOptions o, Supplier<T> operation) {
        try {
            capacity.admit(c, rangeId, o.priority());
            return operation.get();
        } catch (ServiceException e) {
            throw e.charged(capacity.charge(c, rangeId, costs.failed(e.status())));
        }
    }

    double price(Work work, RequestOptions o) {
        return costs.price(work, quorum(o));
    }

    private boolean quorum(RequestOptions o) {
        return level(o).readsQuorum();
    }

    /** The level the request reads at; a 400 before anything runs when it asks for more than the account's default. */
    private Consistency level(RequestOptions o) {
        return o.consistency().under(capacity.defaultConsistency());
    }

    /** Sums of per-operation charges, kept to hundredths as every charge is. */
    private static double roundCharge(double ru) {
        return Math.round(ru * 100) / 100.0;
    }
}
