package dev.partita.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.changefeed.ChangeFeedReader;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.limits.Limits;
import dev.partita.core.query.QueryExecutor;
import dev.partita.core.query.QueryPage;
import dev.partita.core.query.QueryPlans;
import dev.partita.core.request.Deadline;
import dev.partita.core.request.Scope;
import dev.partita.core.script.ScriptCatalog;
import dev.partita.core.script.ScriptRuntime;
import dev.partita.core.store.Store;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlQuery;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The query and change-feed pages of every container, for {@link ContainerHandle} once a request is routed and
 * admitted: each page is bounded by {@link Limits#maxRequestExecution()} from its start, a query page runs on a query
 * thread ({@link QueryWorkers}), and one that calls the container's user-defined functions runs them in one script
 * session.
 */
final class ReadRequests implements AutoCloseable {
    private final Clock clock;
    private final Limits limits;
    private final QueryExecutor queries;
    private final ChangeFeedReader changeFeeds;
    private final QueryWorkers queryWorkers = new QueryWorkers(Runtime.getRuntime().availableProcessors());
    private final ScriptCatalog scriptCatalog;
    private final ScriptRuntime scriptRuntime;
    /** A container's current LSN: the data version a page reads. */
    private final ToLongFunction<ContainerInfo> lsn;

    ReadRequests(Store store, Clock clock, Limits limits, ScriptCatalog scriptCatalog, ScriptRuntime scriptRuntime,
            ToLongFunction<ContainerInfo> lsn) {
        this.clock = clock;
        this.limits = limits;
        this.queries = new QueryExecutor(store, clock, limits);
        this.changeFeeds = new ChangeFeedReader(store, clock, limits);
        this.scriptCatalog = scriptCatalog;
        this.scriptRuntime = scriptRuntime;
        this.lsn = lsn;
    }

    /** Memory held by the approximate vector index of a container path (0 until a query builds it). */
    long vectorIndexBytes(ContainerInfo c, String path) {
        return queries.vectorIndexes().ramBytes(c, path);
    }

    ObjectNode queryPlan(ContainerInfo c, String text, Map<String, JsonNode> params, Set<String> supportedFeatures) {
        return QueryPlans.plan(c, queries.parse(text), params, supportedFeatures);
    }

    /** One page, on a query thread, bounded by {@link Limits#maxRequestExecution()} from now. */
    QueryPage runQuery(ContainerInfo c, Scope scope, String text,
            Map<String, JsonNode> params, String continuation, int maxItemCount) {
        Deadline deadline = Deadline.after(clock, limits.maxRequestExecution());
        Set<String> udfs = queries.parse(text).userFunctionNames();
        if (udfs.isEmpty()) {
            return queryWorkers.run(() -> queries.execute(c, lsn.applyAsLong(c), scope, text, params, continuation,
                    maxItemCount, deadline));
        }
        // a page that calls the container's functions runs them in one script session, under its time bound
        Map<String, String> bodies = scriptCatalog.functions(c, udfs);
        return queryWorkers.run(() -> {
            try (ScriptRuntime.Session session = scriptRuntime.open()) {
                return queries.execute(c, lsn.applyAsLong(c), scope, text, params, continuation, maxItemCount,
                        deadline, session.evalContext(clock, bodies));
            }
        });
    }

    /**
     * A query over account resources the caller lists (databases, containers, offers, users, permissions, scripts),
     * in the same SQL as over items: the rows it selects, in its order. 400 with the service's error list when it
     * does not compile. The lists are small and in memory; no page or deadline applies.
     */
    List<JsonNode> queryResources(List<? extends JsonNode> resources, String text, Map<String, JsonNode> params) {
        return queries.executeOver(resources, text, params, EvalContext.of(clock));
    }

    /** A query parsed (and cached) as the executor parses it; 400 when it is not valid. */
    SqlQuery parseQuery(String text) {
        return queries.parse(text);
    }

    ChangeFeedPage readChangeFeed(ContainerInfo c, Scope scope, ChangeFeedStart start,
            int maxItemCount, ChangeFeedMode mode) {
        return changeFeeds.read(c, scope, start, maxItemCount, mode,
                Deadline.after(clock, limits.maxRequestExecution()));
    }

    /** Stops the query threads (a page still running on one is interrupted). */
    @Override
    public void close() {
        queryWorkers.close();
    }
}
