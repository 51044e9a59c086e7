package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Work;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Snapshot;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.eval.AggregateState;
import dev.partita.sql.eval.UndefinedAggregates;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The pages of a query with SUM, AVG, MIN or MAX, with or without GROUP BY ({@link SqlQuery#carriesAggregates}), read
 * past the request's deadline: each page reads on from where the last one stopped and, until the read is done,
 * answers the partials of nothing and carries the running state of the aggregates (of every group read so far) in its
 * continuation ({@code A.<from>.<state>}); the page that reads the last item answers the range's rows of the whole
 * read. The SDKs follow a range's continuations and merge its rows, the partials of nothing adding nothing (the Java
 * SDK's AggregateDocumentQueryExecutionContext and GroupingTable, the JS SDK's aggregate and GROUP BY endpoint
 * components), so the result is the one an unhurried read gives. A share per page, as COUNT's, would not be: see
 * {@link AggregateState}.
 *
 * <p>When the range is only part of a cross-partition query's scope, a query without GROUP BY reads the whole scope:
 * every item feeds the whole scope's state (what {@link WholeScopeAggregates} reads at once), the range's own items
 * the range's too, and only the range's own items are charged. A GROUP BY's ranges first read on one pass over the
 * whole scope that they share ({@link WholeScopeAggregates#across}, not charged), then each its own items: a page's
 * partials of nothing must be in a group the SDKs show, which only the whole scope tells (see {@link #start}).
 */
final class CarriedAggregates {
    /**
     * The longest state a token carries: a MIN or MAX of a long string is carried whole, as is every group's key and
     * state, and the SDK sends the token back in a header (the gateway takes 64 KB of headers); a longer state is a
     * 408, the service's answer to a query it cannot finish in time.
     */
    private static final int MAX_STATE_CHARS = 16 * 1024;

    private CarriedAggregates() {
    }

    /**
     * The first page's answer when its read ran past the deadline. Once a range has a row every page has one: the JS
     * SDK's aggregate and GROUP BY pipelines stop reading for good at a fetch whose pages were all empty once they
     * hold a row (GroupByValueEndpointComponent and GroupByEndpointComponent.fetchMore, @azure/cosmos 4.10.1).
     * A range that is the whole scope answers nothing until its last page. On a range of a wider scope, without
     * GROUP BY that is the partials of nothing, and the read starts again here; with GROUP BY the partials of nothing
     * must be in a group the SDKs show, which only the whole scope tells: the ranges answer nothing until the pass
     * over it they share is done ({@link WholeScopeAggregates#across}), and this page reads on at once.
     *
     * @param lsn the data version now, at which a GROUP BY's pass over a wider scope begins unless one is running
     */
    static QueryPage start(Snapshot snapshot, ContainerInfo c, long lsn, SqlQuery query, QueryExecutor.Bounds bounds,
            QueryExecutor.Bounds whole, WholeScopeAggregates wholeScope, Map<String, JsonNode> params,
            IndexLookup lookup, Deadline deadline, Visibility visible, EvalContext ctx) {
        boolean wholeToo = !WholeScopeAggregates.within(whole, bounds);
        if (query.hasGroupBy()) {
            if (wholeToo && ctx.userFunctions() != null) {
                // a pass that many requests share would outlive a change of the functions' bodies
                throw QueryErrors.timedOut();
            }
            AggregateState state = wholeToo
                    ? AggregateState.judgedByPass(wholeScope.begin(c, lsn, query, whole, params))
                    : query.newAggregateState(false);
            return read(snapshot, c, query, bounds, whole, wholeScope, params, state, bounds.from(), lookup, deadline,
                    visible, ctx);
        }
        AggregateState state = query.newAggregateState(wholeToo);
        byte[] from = wholeToo ? whole.from() : bounds.from();
        List<JsonNode> rows = neutral(query, state, null, params, ctx);
        return new QueryPage(rows, Continuation.carried(from, state.encode()).encode(), bounds.rangeId(),
                Work.scan(Work.Operation.QUERY, 0, 0, 0, rows.size(), Rows.bytes(rows), 0));
    }

    /** The next page of the read a token of {@link #start} or of this method names. */
    static QueryPage page(Snapshot snapshot, ContainerInfo c, SqlQuery query, QueryExecutor.Bounds bounds,
            QueryExecutor.Bounds whole, WholeScopeAggregates wholeScope, Map<String, JsonNode> params,
            Continuation from, IndexLookup lookup, Deadline deadline, Visibility visible, EvalContext ctx) {
        AggregateState state;
        try {
            state = query.aggregateState(from.state());
        } catch (IllegalArgumentException e) {
            throw Continuation.malformed();
        }
        return read(snapshot, c, query, bounds, whole, wholeScope, params, state, from.key(), lookup, deadline,
                visible, ctx);
    }

    /**
     * Reads on from item key {@code from} into {@code state} until the deadline or the end of the scope; a GROUP BY's
     * range of a wider scope first reads on the whole scope's pass, and on its own items once that is done.
     */
    private static QueryPage read(Snapshot snapshot, ContainerInfo c, SqlQuery query, QueryExecutor.Bounds bounds,
            QueryExecutor.Bounds whole, WholeScopeAggregates wholeScope, Map<String, JsonNode> params,
            AggregateState state, byte[] from, IndexLookup lookup, Deadline deadline, Visibility visible,
            EvalContext ctx) {
        UndefinedAggregates wider = null;
        if (state.pass() != null) {
            wider = wholeScope.across(snapshot, c, state.pass(), query, whole, params, deadline, visible, ctx);
            if (wider == null) {
                return new QueryPage(List.of(), Continuation.carried(from, state.encode()).encode(), bounds.rangeId(),
                        Work.scan(Work.Operation.QUERY, 0, 0, 0, 0, 0, 0));
            }
        }
        QueryExecutor.Bounds scope = state.hasWhole() ? whole : bounds;
        byte[] start = Bytes.compare(from, scope.from()) < 0 ? scope.from() : from;
        QueryExecutor.Bounds rest = new QueryExecutor.Bounds(start, scope.to(), bounds.rangeId());
        try (ItemSource source = state.hasWhole() || lookup == null
                ? new ScanSource(snapshot, rest.from(), rest.to(), visible)
                : KeySetSource.of(snapshot, c.containerId(), lookup, rest, visible, deadline)) {
            OwnItems own = new OwnItems(source.computing(c.indexingPolicy().computed()).until(deadline, true, false),
                    bounds);
            query.accumulate(own, params, ctx, state, own::current);
            if (source.stoppedEarly()) {
                String carried = state.encode();
                if (carried.length() > MAX_STATE_CHARS) {
                    throw QueryErrors.timedOut();
                }
                List<JsonNode> none = neutral(query, state, wider, params, ctx);
                return new QueryPage(none, Continuation.carried(source.nextKey(), carried).encode(), bounds.rangeId(),
                        work(state, source, own, none, ctx));
            }
            // a row the whole scope leaves out (an undefined VALUE aggregate), or a range without a group of its own,
            // is the partials of nothing here: after pages with rows, a page without one would end the JS SDK's read
            // of every range, and for good (it spins: GroupByValueEndpointComponent's completed flag); without GROUP
            // BY the Java SDK then shows null, as it does for the service's undefined partials
            List<JsonNode> rows = wider == null ? query.carriedRows(state, params, ctx)
                    : query.carriedRows(state, wider, params, ctx);
            if (rows.isEmpty()) {
                rows = neutral(query, state, wider, params, ctx);
            }
            return new QueryPage(rows, null, bounds.rangeId(), work(state, source, own, rows, ctx));
        }
    }

    /**
     * The rows of a page without the range's answer: the partials of nothing when the range is part of a wider scope
     * (the SDKs' pipelines across ranges, see {@link #start}); none when it is the whole scope, whose pages an SDK may
     * pass on as they are (the JS SDK's optimistic request with a partition key, js-sdk.md §4) and whose one range
     * has no row before its last page, so no pipeline holds one yet.
     */
    private static List<JsonNode> neutral(SqlQuery query, AggregateState state, UndefinedAggregates wider,
            Map<String, JsonNode> params, EvalContext ctx) {
        return state.hasWhole() || state.pass() != null ? query.neutralRows(wider, params, ctx) : List.of();
    }

    /** A read of the range alone is charged whole (with its index walk); of the whole scope, the range's items. */
    private static Work work(AggregateState state, ItemSource source, OwnItems own, List<JsonNode> rows,
            EvalContext ctx) {
        return state.hasWhole() ? own.work(rows, ctx) : Work.scan(Work.Operation.QUERY, source.entriesRead,
                source.items, source.bytes, rows.size(), Rows.bytes(rows), ctx.callCounter().calls());
    }

    /** The source's items, telling whether the last one is the range's own and counting the work of those alone. */
    private static final class OwnItems implements Iterable<JsonNode> {
        private final ItemSource source;
        private final QueryExecutor.Bounds range;
        private boolean current;
        private long entries;
        private long items;
        private long bytes;

        OwnItems(ItemSource source, QueryExecutor.Bounds range) {
            this.source = source;
            this.range = range;
        }

        boolean current() {
            return current;
        }

        Work work(List<JsonNode> rows, EvalContext ctx) {
            return Work.scan(Work.Operation.QUERY, entries, items, bytes, rows.size(), Rows.bytes(rows),
                    ctx.callCounter().calls());
        }

        @Override
        public Iterator<JsonNode> iterator() {
            Iterator<JsonNode> in = source.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    long e = source.entriesRead;
                    long i = source.items;
                    long b = source.bytes;
                    boolean more = in.hasNext();
                    current = more && range.contains(source.itemKey);
                    if (current) {
                        entries += source.entriesRead - e;
                        items += source.items - i;
                        bytes += source.bytes - b;
                    }
                    return more;
                }

                @Override
                public JsonNode next() {
                    return in.next();
                }
            };
        }
    }
}
