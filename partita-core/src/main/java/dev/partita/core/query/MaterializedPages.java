package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.index.IndexLookup;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Snapshot;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.eval.UndefinedAggregates;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The pages of a query evaluated whole (GROUP BY, aggregates, DISTINCT, ORDER BY on computed values): the result is
 * computed once and kept for the following pages as long as the container has not changed (same LSN), which makes
 * its pages a consistent snapshot.
 *
 * <p>A query whose rows over part of the items are what the service's pages carry ({@link SqlQuery#pagesAsPartials}:
 * COUNT shares and groups, which the SDKs add up and merge across pages) is not failed at the request's deadline:
 * the read stops after the item it is on, the page answers the rows of the part read so far, and the continuation
 * resumes the read at the next item; that is for requests to one range of a wider scope, which is what the SDKs'
 * pipelines send. A SUM, AVG, MIN or MAX, with or without GROUP BY, on such a request carries its aggregates' running
 * state across pages instead ({@link CarriedAggregates}), and so does a COUNT on a range that is the query's whole
 * scope (a partition key's): the JS SDK's first request with a partition key passes its pages on unmerged. Any other query cannot return part of its result: past the
 * deadline it is a 408.
 */
final class MaterializedPages {
    private static final int RESULT_CACHE = 32;

    private final Map<ResultKey, Result> results = QueryExecutor.lru(RESULT_CACHE);
    private final WholeScopeAggregates wholeScope = new WholeScopeAggregates();
    private final long maxResponseBytes;

    /** @param maxResponseBytes where a page ends by the size of the rows it returns (at least one row) */
    MaterializedPages(long maxResponseBytes) {
        this.maxResponseBytes = maxResponseBytes;
    }

    /** The query, its parameters, the data version, the scope's end and the part of it a result holds for. */
    private record ResultKey(int container, long lsn, String text, String params, String rangeId, String scopeTo,
            String from, String to) {
    }

    /**
     * A part's rows and the work that computing them took. The page that computes a part (offset 0) is charged that
     * work whether or not the rows came from the cache, and later pages of it are not: the same request costs the same
     * every time, as the SDKs' RU caps and the JS SDK's own tests (fetchAll against fetchNext) expect.
     */
    private record Result(List<JsonNode> rows, long entries, long items, long bytes, long calls) {
    }

    /**
     * One page of the result over the part of {@code bounds} the token names (all of it at first).
     *
     * @param whole the whole container's bounds narrowed by the filter, for {@link WholeScopeAggregates}
     */
    QueryPage page(Snapshot snapshot, ContainerInfo c, long lsn, SqlQuery query, QueryExecutor.Bounds bounds,
            QueryExecutor.Bounds whole, Map<String, JsonNode> params, String token, int pageSize,
            IndexLookup lookup, Deadline deadline, Visibility visible, EvalContext ctx) {
        Continuation from = Continuation.parse(token, false);
        if (from.offset() < 0 || from.state() != null && !carries(query, bounds, whole)) {
            throw Continuation.malformed();
        }
        if (from.state() != null) {
            return CarriedAggregates.page(snapshot, c, query, bounds, whole, wholeScope, params, from, lookup,
                    deadline, visible, ctx);
        }
        byte[] start = from.partFrom() == null || Bytes.compare(from.partFrom(), bounds.from()) < 0
                ? bounds.from() : from.partFrom();
        byte[] end = from.partTo() == null || bounds.to() != null && Bytes.compare(from.partTo(), bounds.to()) > 0
                ? bounds.to() : from.partTo();
        // only a part not read yet may stop at the deadline: one a previous page ended or paged through is read
        // again whole (when its result left the cache), so the token's offset still counts the same rows. A request
        // that names neither a range nor a partition key is the whole-container answer no SDK merges (the JS SDK's
        // optimistic request passes its rows through as they are): it stays whole, or a 408
        boolean mayStop = query.pagesAsPartials() && bounds.rangeId() != null && from.partTo() == null
                && from.offset() == 0 && !carries(query, bounds, whole);
        QueryExecutor.Bounds part = new QueryExecutor.Bounds(start, end, bounds.rangeId());
        ResultKey key = new ResultKey(c.containerId(), lsn, query.text(), String.valueOf(params), bounds.rangeId(),
                text(bounds.to()), text(start), text(from.partTo()));
        boolean cacheable = ctx.userFunctions() == null;
        Result computed;
        synchronized (results) {
            computed = cacheable ? results.get(key) : null;
        }
        byte[] cut = from.partTo();
        if (computed == null) {
            List<JsonNode> all;
            long calls = ctx.callCounter().calls();
            try (ItemSource source = lookup == null
                            ? new ScanSource(snapshot, part.from(), part.to(), visible)
                            : KeySetSource.of(snapshot, c.containerId(), lookup, part, visible, deadline)) {
                UndefinedAggregates wider = wholeScope.of(snapshot, c, lsn, query, bounds, whole, params, deadline,
                        visible, ctx);
                all = query.execute(source.computing(c.indexingPolicy().computed()).until(deadline, mayStop, false),
                        params, ctx, wider);
                if (source.stoppedEarly()) {
                    cut = successor(source.currentKey);
                }
                computed = new Result(all, source.entriesRead, source.items, source.bytes,
                        ctx.callCounter().calls() - calls);
            } catch (ServiceException e) {
                if (e.status() != 408 || from != Continuation.START) {
                    throw e;
                }
                // a SUM, AVG, MIN or MAX the budget does not cover: the read carries its running state on instead
                if (carries(query, bounds, whole)) {
                    return CarriedAggregates.start(snapshot, c, lsn, query, bounds, whole, wholeScope, params, lookup,
                            deadline, visible, ctx);
                }
                // the whole-container answer (the JS SDK's optimistic request) of a query the SDKs' pipelines page
                // within the budget: the gateway's answer to a query it does not serve, after which the JS SDK runs
                // the plan range by range (js-sdk.md §4)
                if (bounds.rangeId() == null && (query.pagesAsPartials() || query.carriesAggregates())) {
                    throw ServiceException.needsQueryPlan("The provided cross partition query can not be directly"
                            + " served by the gateway within the time one request may take; run it through the"
                            + " query plan, which additionalErrorInfo holds.",
                            QueryPlans.plan(c, query, params, null).toString());
                }
                throw e;
            }
            if (cacheable) {
                synchronized (results) {
                    results.put(from.partTo() == null && cut != null
                            ? new ResultKey(key.container, lsn, key.text, key.params, key.rangeId, key.scopeTo,
                                    key.from, text(cut))
                            : key, computed);
                }
            }
        }
        List<JsonNode> all = computed.rows();
        int offset = (int) Math.min(from.offset(), all.size());
        int last = (int) Math.min((long) offset + pageSize, all.size());
        int stop = offset;
        long returned = 0;
        while (stop < last && (stop == offset || returned < maxResponseBytes)) {
            returned += Rows.bytes(all.get(stop++)) + 1;
        }
        List<JsonNode> page = all.subList(offset, stop);
        String next = next(from, start, cut, stop, all.size());
        boolean computes = offset == 0;
        return new QueryPage(page, next, bounds.rangeId(), Work.scan(Work.Operation.QUERY,
                computes ? computed.entries() : 0, computes ? computed.items() : 0, computes ? computed.bytes() : 0,
                page.size(), returned, computes ? computed.calls() : 0));
    }

    /**
     * The query is one whose read may carry its aggregates' state across pages, on a request the SDKs merge: one with
     * SUM, AVG, MIN or MAX, or with COUNT alone on a range that is the whole scope (whose pages the JS SDK's first
     * request with a partition key passes on unmerged, so they must not be shares).
     */
    private static boolean carries(SqlQuery query, QueryExecutor.Bounds bounds, QueryExecutor.Bounds whole) {
        return bounds.rangeId() != null && (query.carriesAggregates()
                || query.carriesCounts() && WholeScopeAggregates.within(whole, bounds));
    }

    /**
     * The token after a page that ended at row {@code stop} of {@code rows}: the next rows of the same part, else the
     * next part of the scope when the read was cut, else none.
     */
    private static String next(Continuation from, byte[] start, byte[] cut, int stop, int rows) {
        if (stop < rows) {
            return (from.partFrom() == null && cut == null ? Continuation.materialized(stop)
                    : Continuation.ofPart(stop, start, cut)).encode();
        }
        return cut == null ? null : Continuation.ofPart(0, cut, null).encode();
    }

    /** The smallest key after {@code key}: the next part starts at the item after the last one read. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    private static String text(byte[] key) {
        return key == null ? "-" : Base64.getEncoder().encodeToString(key);
    }
}
