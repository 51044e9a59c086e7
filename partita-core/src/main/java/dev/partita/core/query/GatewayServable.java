package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.sql.SqlQuery;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which of a client's queries over the whole container (no range id, no partition key: the JavaScript SDK's first,
 * optimistic request) the gateway answers itself. One that needs the SDK's pipeline — ORDER BY, aggregates, GROUP BY,
 * DISTINCT, TOP, OFFSET/LIMIT — across more than one physical partition is the service's 400/1004 with the query plan
 * in {@code additionalErrorInfo}; the SDK then runs the plan range by range, and pays what the ranges charge (the
 * SDK's own specs compare that charge). Streamable queries, and any query whose plan pins one partition, are served.
 */
public final class GatewayServable {
    static final String MESSAGE = "The provided cross partition query can not be directly served by the gateway."
            + " This is a first chance (internal) exception that all newer clients will know how to handle gracefully."
            + " This exception is traced, but unless you see it bubble up as an exception (which only happens on older"
            + " SDK clients), then you can safely ignore this message.";

    private GatewayServable() {
    }

    /** Throws the service's 400/1004 with the plan when the gateway would not serve {@code query} over all of c. */
    public static void check(ContainerInfo c, SqlQuery query, Map<String, JsonNode> params) {
        if (c.partitions().size() < 2 || !needsPipeline(query)) {
            return;
        }
        ObjectNode plan = QueryPlans.plan(c, query, params, null);
        if (!onePartition(c, plan)) {
            throw ServiceException.needsQueryPlan(SubStatus.CROSS_PARTITION_QUERY_NOT_SERVABLE, MESSAGE,
                    plan.toString());
        }
    }

    private static boolean needsPipeline(SqlQuery q) {
        return !q.isStreamable() || q.top().isPresent() || q.offset().isPresent() || q.limit().isPresent();
    }

    /** Whether every range of the plan is a point (a full partition key) and all points route to one partition. */
    private static boolean onePartition(ContainerInfo c, ObjectNode plan) {
        Set<String> owners = new HashSet<>();
        for (JsonNode r : plan.path("queryRanges")) {
            String min = r.path("min").asText();
            if (!min.equals(r.path("max").asText()) || !r.path("isMaxInclusive").asBoolean()) {
                return false;
            }
            owners.add(c.partitions().route(min).id());
        }
        return owners.size() == 1;
    }
}
