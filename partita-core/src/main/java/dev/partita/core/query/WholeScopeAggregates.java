package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.item.Visibility;
import dev.partita.core.request.Deadline;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Snapshot;
import dev.partita.sql.CallCounter;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.eval.AggregateState;
import dev.partita.sql.eval.UndefinedAggregates;
import java.util.Map;

/**
 * The aggregates that the whole scope of a cross-partition query makes undefined, for the range of it a request
 * runs (see {@link UndefinedAggregates}: the SDKs' merges skip one range's undefined SUM, AVG, MIN or MAX instead of
 * making the result undefined, so every range must answer undefined). The scope is every item of the container the
 * query's filter keeps (the SDK sends the query to the ranges of the plan, which the same filter decides); a user's
 * feed range narrower than the container is not known here, so such a query is judged over the whole container.
 * <p>
 * A VALUE aggregate that is undefined over the whole scope gives no row from any range (see
 * {@link dev.partita.sql.plan.UndefinedPartial}).
 * <p>
 * The SDK sends the same text to every range at once: the answer is kept per container version and text, so the
 * scope is read once per query, not once per range. It is not charged: the service computes it nowhere.
 * <p>
 * A GROUP BY whose ranges carry their groups past the deadline ({@link CarriedAggregates}) reads the scope over as
 * many requests as it takes ({@link #across}): every range's pages read on the same pass, until the deadline of each,
 * and no range answers a row before the pass is done (a page's row must be in a group the whole scope shows).
 */
final class WholeScopeAggregates {
    private static final int CACHE = 32;
    /** Passes read across requests, running or done; a range whose pass is gone is a 408. */
    private static final int PASSES = 64;

    private final Map<Key, UndefinedAggregates> cache = QueryExecutor.lru(CACHE);
    private final Map<Key, Pass> passes = QueryExecutor.lru(PASSES);
    /** A query's pass not done yet, by the data version it began at: the pass a range's first page joins. */
    private final Map<Running, Long> running = QueryExecutor.lru(PASSES);

    /** A query and its parameters over one container, whatever the data version. */
    private record Running(int container, String text, String params) {
    }

    /** The query, its parameters and the data version the answer holds for. */
    private record Key(int container, long lsn, String text, String params) {
    }

    /**
     * What the whole scope makes undefined: {@link UndefinedAggregates#NONE} when the query has no SUM/AVG/MIN/MAX,
     * {@link SqlQuery#wholeScope()} when the range is the whole scope (one partition, a partition key, or a filter
     * that pins a partition key this range holds).
     *
     * @param local the range's bounds; {@code scope} the whole container's, narrowed by the query's filter
     */
    UndefinedAggregates of(Snapshot snapshot, ContainerInfo c, long lsn, SqlQuery query, QueryExecutor.Bounds local,
            QueryExecutor.Bounds scope, Map<String, JsonNode> params, Deadline deadline, Visibility visible,
            EvalContext ctx) {
        if (!query.hasTypeSensitiveAggregates()) {
            return UndefinedAggregates.NONE;
        }
        if (within(scope, local)) {
            return SqlQuery.wholeScope();
        }
        Key key = new Key(c.containerId(), lsn, query.text(), String.valueOf(params));
        boolean cacheable = ctx.userFunctions() == null;
        synchronized (cache) {
            UndefinedAggregates known = cacheable ? cache.get(key) : null;
            if (known != null) {
                return known;
            }
        }
        UndefinedAggregates out;
        try (ItemSource source = new ScanSource(snapshot, scope.from(), scope.to(), visible)) {
            // its own count of function calls: the page's charge counts only the range's own work
            out = query.undefinedAggregates(source.computing(c.indexingPolicy().computed())
                    .until(deadline, false, false), params, ctx.withCallCounter(new CallCounter()));
        }
        if (cacheable) {
            synchronized (cache) {
                cache.put(key, out);
            }
        }
        return out;
    }

    /** A pass over the whole scope read across requests: where it reads on, its groups so far, and its answer. */
    private static final class Pass {
        byte[] next;
        AggregateState groups;
        UndefinedAggregates done;

        Pass(byte[] from, AggregateState groups) {
            this.next = from;
            this.groups = groups;
        }
    }

    /**
     * The data version of the pass a range's first page reads on ({@link #across}): the query's pass that is not done
     * yet, whatever version it began at (the SDK's first requests to the ranges may straddle a write, and a range
     * that waits for a pass of its own would answer nothing while another answers rows), else one at {@code lsn}.
     */
    long begin(ContainerInfo c, long lsn, SqlQuery query, QueryExecutor.Bounds scope, Map<String, JsonNode> params) {
        Running asked = new Running(c.containerId(), query.text(), String.valueOf(params));
        synchronized (passes) {
            Long begun = running.get(asked);
            if (begun != null && passes.containsKey(new Key(c.containerId(), begun, asked.text(), asked.params()))) {
                return begun;
            }
            Key key = new Key(c.containerId(), lsn, asked.text(), asked.params());
            if (!passes.containsKey(key)) {
                passes.put(key, new Pass(scope.from(), query.newAggregateState(false)));
                running.put(asked, lsn);
            }
            return lsn;
        }
    }

    /**
     * What the whole scope makes undefined, read on the pass begun at data version {@code pass} (every range's pages
     * of one query share it; each request reads on until its deadline, at least one item): null while the pass is not
     * done. The pass reads each request's snapshot from where it stopped, as a carried read does. A pass that is gone
     * (more than {@value #PASSES} queries at once) is a 408.
     */
    UndefinedAggregates across(Snapshot snapshot, ContainerInfo c, long pass, SqlQuery query,
            QueryExecutor.Bounds scope, Map<String, JsonNode> params, Deadline deadline, Visibility visible,
            EvalContext ctx) {
        Key key = new Key(c.containerId(), pass, query.text(), String.valueOf(params));
        Pass p;
        synchronized (passes) {
            p = passes.get(key);
        }
        if (p == null) {
            throw QueryErrors.timedOut();
        }
        synchronized (p) {
            if (p.done != null) {
                return p.done;
            }
            // its own count of function calls: the page's charge counts only the range's own work
            EvalContext own = ctx.withCallCounter(new CallCounter());
            try (ItemSource source = new ScanSource(snapshot, p.next, scope.to(), visible)) {
                query.accumulate(source.computing(c.indexingPolicy().computed()).until(deadline, true, false),
                        params, own, p.groups, () -> true);
                if (source.stoppedEarly()) {
                    p.next = source.nextKey();
                    return null;
                }
            }
            p.done = query.undefinedAggregates(p.groups, params, own);
            p.groups = null;
            synchronized (passes) {
                running.remove(new Running(c.containerId(), query.text(), String.valueOf(params)), pass);
            }
            return p.done;
        }
    }

    /** True when the scope's interval lies inside the range's. */
    static boolean within(QueryExecutor.Bounds scope, QueryExecutor.Bounds local) {
        boolean fromInside = Bytes.compare(scope.from(), local.from()) >= 0;
        boolean toInside = local.to() == null || scope.to() != null && Bytes.compare(scope.to(), local.to()) <= 0;
        return fromInside && toInside;
    }
}
