package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.index.IndexState;
import dev.partita.core.index.IndexTerms;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.item.PartitionDeletes;
import dev.partita.core.item.Visibility;
import dev.partita.core.index.vector.VectorIndexes;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.EpkRange;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.request.Deadline;
import dev.partita.core.request.Scope;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.CallCounter;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.plan.IndexPredicates;
import dev.partita.sql.plan.PartitionKeyFilter;
import dev.partita.sql.plan.SortBounds;
import dev.partita.sql.search.SearchFunctions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one page of a query over one scope (a physical partition, a logical partition or the container).
 *
 * <p>Queries whose rows depend on one item at a time are streamed in key order from a store snapshot and resume at
 * the item the previous page stopped in, so pages never lose or repeat rows and a page costs what it returns. ORDER BY
 * on document paths is read through the first key's index in order ({@link OrderedSource}), so a sorted page also
 * reads about what it returns. Other queries (GROUP BY, aggregates, DISTINCT, ORDER BY on computed values, or when
 * the index is not built) are evaluated whole ({@link MaterializedPages}).
 */
public final class QueryExecutor {
    private static final int PARSED_CACHE = 256;

    private final Store store;
    private final Limits limits;
    private final Clock clock;
    private final EvalContext context;
    private final Map<String, SqlQuery> parsed = lru(PARSED_CACHE);
    private final NonScalarItems nonScalarItems = new NonScalarItems();
    private final VectorIndexes vectorIndexes = new VectorIndexes();
    private final MaterializedPages materialized;
    private final RidOrderedSource.LargeScopes largeScopes = new RidOrderedSource.LargeScopes();

    public QueryExecutor(Store store, Clock clock, Limits limits) {
        this.store = store;
        this.limits = limits;
        this.materialized = new MaterializedPages(limits.maxResponseBytes());
        this.clock = clock;
        this.context = EvalContext.of(clock);
    }

    /** Parses (once per distinct text) and validates a query; syntax and semantic errors are 400s. */
    public SqlQuery parse(String text) {
        if (text == null || text.isBlank()) {
            throw ServiceException.badRequest("The query text is empty.");
        }
        synchronized (parsed) {
            SqlQuery q = parsed.get(text);
            if (q != null) {
                return q;
            }
        }
        SqlQuery q;
        try {
            q = Sql.parse(text);
        } catch (SqlException e) {
            throw QueryErrors.badQuery(e);
        }
        synchronized (parsed) {
            parsed.put(text, q);
        }
        return q;
    }

    /**
     * {@code text} run over {@code rows} given in memory (account resources, not a container's items): every row it
     * selects. What does not compile or evaluate (an undefined parameter, say) is the service's 400.
     */
    public List<JsonNode> executeOver(List<? extends JsonNode> rows, String text, Map<String, JsonNode> params,
            EvalContext ctx) {
        SqlQuery q = parse(text);
        try {
            return q.execute(rows, params, ctx);
        } catch (SqlException e) {
            throw QueryErrors.badQuery(e);
        }
    }

    /**
     * One page of results.
     *
     * @param lsn          the container's current LSN, which identifies the data version for cached results
     * @param maxItemCount rows per page; -1 or 0 for "as many as fit in a response"
     */
    public QueryPage execute(ContainerInfo container, long lsn, Scope scope, String text,
            Map<String, JsonNode> params, String continuation, int maxItemCount, Deadline deadline) {
        return execute(container, lsn, scope, text, params, continuation, maxItemCount, deadline, context);
    }

    /**
     * One page of results evaluated with {@code base} (which carries the container's user-defined functions); such
     * pages are never cached, since a function's body can change while the data does not.
     */
    public QueryPage execute(ContainerInfo container, long lsn, Scope scope, String text,
            Map<String, JsonNode> params, String continuation, int maxItemCount, Deadline deadline,
            EvalContext base) {
        Instant compiling = clock.instant();
        SqlQuery query = parse(text);
        long compileNanos = Math.max(0, Duration.between(compiling, clock.instant()).toNanos());
        if (query.orderBy().size() == 1 && SearchFunctions.isRankOnly(query.orderBy().get(0).expr())) {
            throw ServiceException.needsQueryPlan("This query ranks items across all partitions (FullTextScore or "
                    + "RRF): run it through the query plan, which additionalErrorInfo holds.",
                    QueryPlans.plan(container, query, params, null).toString());
        }
        // a fresh count of function calls and of search work per page: both are part of the page's work
        EvalContext ctx = (deadline.atMillis() == Long.MAX_VALUE ? base : base.withDeadline(deadline.atMillis()))
                .withSearch(container.search()).withCallCounter(new CallCounter());
        QueryPage page = page(container, lsn, scope, query, params, continuation, maxItemCount, deadline, ctx);
        return new QueryPage(page.rows(), page.continuation(), page.rangeId(),
                page.work().withSearchWork(ctx.searchWork())).withCompileNanos(compileNanos);
    }

    private QueryPage page(ContainerInfo container, long lsn, Scope scope, SqlQuery query,
            Map<String, JsonNode> params, String continuation, int maxItemCount, Deadline deadline,
            EvalContext ctx) {
        IndexingPolicy policy = container.indexingPolicy();
        OrderByIndexRule.check(policy, query);
        Bounds scoped = bounds(container, scope);
        Bounds bounds = narrowedByFilter(container, scoped, query, params);
        // one range of a cross-partition query: its SUM/AVG/MIN/MAX depend on the whole scope's items too, and its
        // COUNTs past the deadline are shares only when it is not the whole scope
        Bounds whole = (query.hasTypeSensitiveAggregates() || query.carriesCounts()) && scope.partitionKey() == null
                && container.partitions().size() > 1
                ? narrowedByFilter(container, bounds(container, Scope.CONTAINER), query, params) : bounds;
        // a non-streaming ORDER BY (vector, full-text and hybrid ranking) answers its whole TOP at once: the SDKs
        // read one page per partition and keep the best rows of all of them
        int pageSize = maxItemCount <= 0 || ranked(query) ? Integer.MAX_VALUE : maxItemCount;
        try (Snapshot snapshot = store.snapshot()) {
            // the entries are used only when this snapshot holds them complete for this policy
            IndexLookup lookup = IndexState.isReady(snapshot, container.containerId(), policy)
                    ? IndexLookup.choose(container.containerId(), policy, IndexPredicates.of(query.ast(), params),
                            bounds == scoped ? List.of() : container.partitionKey().paths().stream()
                                    .map(PartitionKeyFilter::segments).toList())
                    : null;
            QueryPage approximate = ApproximateVectorSearch.run(vectorIndexes, snapshot, container, query, bounds,
                    params, ctx, clock.millis() / 1000, deadline);
            if (approximate != null) {
                return approximate;
            }
            if (query.isStreamable()) {
                return streamed(snapshot, container, lsn, query, bounds, params, continuation, pageSize, lookup,
                        deadline, ctx);
            }
            SortKeys sort = SortKeys.of(query);
            boolean indexOrder = sort != null && policy.isIndexing() && policy.indexesNames(sort.first())
                    && IndexState.isReady(snapshot, container.containerId(), policy);
            return indexOrder
                    ? ordered(snapshot, container, policy, lsn, query, sort, bounds, params, continuation, pageSize,
                            deadline, ctx)
                    : materialized.page(snapshot, container, lsn, query, bounds, whole, params, continuation,
                            pageSize, lookup, deadline, visibility(snapshot, container), ctx);
        } catch (SqlException e) {
            throw SqlException.TIMEOUT.equals(e.code()) ? QueryErrors.timedOut() : QueryErrors.badQuery(e);
        }
    }

    /** The approximate vector indexes the queries use (the benchmarks read their size). */
    public VectorIndexes vectorIndexes() {
        return vectorIndexes;
    }

    private static boolean ranked(SqlQuery query) {
        return query.orderBy().stream().anyMatch(o -> SearchFunctions.isRankCall(o.expr()));
    }

    /**
     * Streams the scope's items (or, with an index lookup, the candidates in index order) through the query. The
     * continuation names the store key the page stopped at (an item key for a scan, an index entry key for a lookup)
     * and how many rows of that item were already returned.
     */
    private QueryPage streamed(Snapshot snapshot, ContainerInfo c, long lsn, SqlQuery query, Bounds bounds,
            Map<String, JsonNode> params, String token, int pageSize, IndexLookup lookup, Deadline deadline,
            EvalContext ctx) {
        Continuation from = Continuation.parse(token, true);
        if (from.ordered() != null || from.key() != null && from.indexed() != (lookup != null)) {
            throw tokenOfAnotherPlan();
        }
        SqlQuery unpaged = query.withoutPaging();
        PageRows page = new PageRows(query, params, pageSize, limits.maxResponseBytes(), from, from.key() != null,
                deadline);
        Visibility visible = visibility(snapshot, c);
        try (ItemSource source = streamedSource(snapshot, c, lsn, lookup, from.key(), bounds, visible, deadline)) {
            if (!page.exhausted()) {
                unpaged.stream(source.computing(c.indexingPolicy().computed()).until(deadline, true,
                        from.key() != null), params, ctx, row -> page.accept(row,
                        source.changedItem(), source.isResumeItem(from.key()), source.bytes));
            }
            if (source.stoppedEarly()) {
                page.cut();
            }
            String next = page.continues() ? Continuation.streamed(lookup != null, source.currentKey,
                    source.stoppedBetweenItems() ? 0 : page.rowsOfItem(), page.emitted(), page.skipped()).encode()
                    : null;
            // the read's last page carries no continuation (ItemSource#candidatesLeft)
            if (next != null && !source.stoppedEarly() && query.oneRowPerItem() && !source.candidatesLeft()) {
                next = null;
            }
            List<JsonNode> rows = page.rows();
            return new QueryPage(rows, next, bounds.rangeId, Work.scan(Work.Operation.QUERY, source.entriesRead,
                    source.items, source.bytes, rows.size(), page.returnedBytes(), ctx.callCounter().calls()));
        }
    }


    /**
     * The candidates of a streamed page: in rid order when the scope is small enough (or the page resumes a rid-ordered
     * read), else in key order from the resume key (see {@link RidOrderedSource}).
     */
    private ItemSource streamedSource(Snapshot snapshot, ContainerInfo c, long lsn, IndexLookup lookup, byte[] resume,
            Bounds bounds, Visibility visible, Deadline deadline) {
        boolean fresh = resume == null;
        if (fresh && !largeScopes.isLarge(bounds, lsn) && lookup != null
                && !RidOrderedSource.isSmall(snapshot, bounds)) {
            // a lookup's candidates may be few in a large scope: the order follows the scope's size, not the filter's
            largeScopes.large(bounds, lsn);
        } else if (fresh && !largeScopes.isLarge(bounds, lsn) || RidOrderedSource.isRidKey(resume)) {
            RidOrderedSource byRid = lookup == null ? RidOrderedSource.scan(snapshot, bounds, resume, visible)
                    : RidOrderedSource.lookup(snapshot, c.containerId(), lookup, bounds, resume, visible, deadline);
            if (byRid != null) {
                return byRid;
            }
            if (!deadline.passed()) {
                largeScopes.large(bounds, lsn);
            }
        }
        return lookup == null ? new ScanSource(snapshot, resume != null ? resume : bounds.from, bounds.to, visible)
                : new IndexSource(snapshot, c.containerId(), lookup, resume, bounds, visible);
    }

    /**
     * ORDER BY read through the first key's index: only the groups of items the page returns (and the index entries
     * that lead to them) are read, instead of every item of the scope. The continuation names the position in the
     * order (see {@link OrderedSource}); TOP, OFFSET and LIMIT carry across pages as for streamed queries.
     */
    private QueryPage ordered(Snapshot snapshot, ContainerInfo c, IndexingPolicy policy, long lsn, SqlQuery query,
            SortKeys sort, Bounds bounds, Map<String, JsonNode> params, String token, int pageSize,
            Deadline deadline, EvalContext ctx) {
        Continuation from = Continuation.parse(token, true);
        if (from.resumes() && from.ordered() == null) {
            throw tokenOfAnotherPlan();
        }
        SqlQuery unordered = query.withoutOrderByOrPaging();
        PageRows page = new PageRows(query, params, pageSize, limits.maxResponseBytes(), from,
                from.ordered() != null, deadline);
        Visibility visible = visibility(snapshot, c);
        OrderedSource.NonScalar nonScalar = policy.marksNonScalars(sort.first())
                ? kind -> markedNonScalars(snapshot, c.containerId(), sort.first(), bounds)
                : kind -> nonScalarItems.in(snapshot, c.containerId(), sort.first(), lsn, bounds.from, bounds.to, kind,
                        deadline);
        SortBounds possible = SortBounds.of(query.ast(), params, sort.first());
        try (OrderedSource source = new OrderedSource(snapshot, c.containerId(), sort, bounds, nonScalar, possible,
                from.ordered(), visible)) {
            if (!page.exhausted()) {
                unordered.stream(source.computing(policy.computed()).until(deadline, from.ordered() != null), params,
                        ctx, row -> page.accept(row, source.changedItem(), source.current.sameAs(from.ordered()),
                                source.bytes));
            }
            if (source.stoppedEarly()) {
                page.cut();
            }
            String next = page.continues() ? Continuation.ordered(source.current,
                    source.stoppedBetweenItems() ? 0 : page.rowsOfItem(), page.emitted(), page.skipped()).encode()
                    : null;
            // the read's last page carries no continuation (ItemSource#candidatesLeft)
            if (next != null && !source.stoppedEarly() && query.oneRowPerItem() && !source.candidatesLeft()) {
                next = null;
            }
            List<JsonNode> rows = page.rows();
            return new QueryPage(rows, next, bounds.rangeId, Work.scan(Work.Operation.QUERY, source.entriesRead,
                    source.items, source.bytes, rows.size(), page.returnedBytes(), ctx.callCounter().calls()));
        }
    }

    /** The items the index marks as having no scalar at the path, in the scope (the caller sorts out which kind). */
    private static List<byte[]> markedNonScalars(Snapshot snapshot, int container, List<String> path, Bounds bounds) {
        byte[][] range = IndexTerms.undefinedRange(container, path);
        List<byte[]> keys = new ArrayList<>();
        try (Cursor cursor = snapshot.scan(range[0], range[1])) {
            while (cursor.next()) {
                byte[] itemKey = IndexTerms.itemKey(container, cursor.key());
                if (bounds.contains(itemKey)) {
                    keys.add(itemKey);
                }
            }
        }
        return keys;
    }

    /** What the page sees: items not expired now and not gone with a partition delete the snapshot holds. */
    private Visibility visibility(Snapshot snapshot, ContainerInfo c) {
        return new Visibility(clock.millis() / 1000, PartitionDeletes.load(snapshot, c.containerId()));
    }

    /** A token from a page read another way (an index built or a policy changed between the pages). */
    private static ServiceException tokenOfAnotherPlan() {
        return ServiceException.badRequest("The continuation token does not fit this query any more (the container's"
                + " indexing policy changed since it was issued); run the query again from the start.");
    }

    // ---- scope → key bounds

    /** The scope as an item-key interval {@code [from, to)}. */
    record Bounds(byte[] from, byte[] to, String rangeId) {
        boolean contains(byte[] itemKey) {
            return Bytes.compare(itemKey, from) >= 0 && (to == null || Bytes.compare(itemKey, to) < 0);
        }
    }

    private Bounds bounds(ContainerInfo c, Scope scope) {
        Scope.Target t = scope.target(c.partitionKey(), c.partitions(), limits);
        String rangeId = t.container() ? null : t.owner().id();
        byte[][] r = t.exactEpk() != null ? StoreKeys.logicalPartition(c.containerId(), t.exactEpk())
                : prefixRange(c.containerId(), t.range());
        return new Bounds(r[0], r[1], rangeId);
    }

    private static byte[][] prefixRange(int containerId, EpkRange range) {
        return StoreKeys.itemRange(containerId, range.minInclusive(), range.maxExclusive());
    }

    /**
     * The scope cut down to the one logical partition (or hierarchical-key prefix) the query's filter pins, if it
     * pins one: the service's per-partition index finds those items by their key, so a query sent to a whole physical
     * partition with {@code WHERE c.pk = @v} reads only that partition's items (and, sorted, its index entries).
     */
    private static Bounds narrowedByFilter(ContainerInfo c, Bounds bounds, SqlQuery query,
            Map<String, JsonNode> params) {
        List<List<JsonNode>> points = PartitionKeyFilter.points(query.ast(), c.partitionKey().paths(), params)
                .orElse(List.of());
        if (points.size() != 1 || c.partitionKey().systemKey()) {
            return bounds;
        }
        List<JsonNode> point = points.get(0);
        String epk;
        try {
            epk = EffectivePartitionKey.of(c.partitionKey(),
                    PartitionKeyValue.fromJson(Json.NODES.arrayNode().addAll(point)));
        } catch (ServiceException e) {
            return bounds; // not a value a stored item could have: the filter itself decides
        }
        byte[][] r = point.size() == c.partitionKey().levels() ? StoreKeys.logicalPartition(c.containerId(), epk)
                : prefixRange(c.containerId(), EpkRange.forPrefix(epk));
        byte[] from = Bytes.compare(r[0], bounds.from) > 0 ? r[0] : bounds.from;
        byte[] to = bounds.to == null || Bytes.compare(r[1], bounds.to) < 0 ? r[1] : bounds.to;
        return new Bounds(from, Bytes.compare(from, to) < 0 ? to : from, bounds.rangeId);
    }

    // ---- the items of a scope as the evaluator's input: see ItemSource and its kinds

    static <K, V> Map<K, V> lru(int capacity) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }
}
