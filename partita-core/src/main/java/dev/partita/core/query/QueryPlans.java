package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.partition.EpkRange;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.sql.SqlException;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.plan.QueryPlan;
import dev.partita.sql.plan.QueryPlanner;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SDK's query plan for a container: the language's planner decides the rewrite and which partition-key values
 * the filter pins; this class turns those values into EPK ranges with the container's hashing. A full key is a point
 * range (both ends inclusive, query-plans.md §1.3); a hierarchical prefix is its {@link EpkRange#forPrefix} range.
 */
public final class QueryPlans {
    private QueryPlans() {
    }

    public static ObjectNode plan(ContainerInfo c, SqlQuery query, Map<String, JsonNode> params,
            Set<String> supportedFeatures) {
        OrderByIndexRule.check(c.indexingPolicy(), query);
        QueryPlan plan;
        try {
            plan = QueryPlanner.plan(query, c.partitionKey().paths(), params,
                    supportedFeatures == null ? QueryPlanner.JAVA_SDK_FEATURES : supportedFeatures, c.search());
        } catch (SqlException e) {
            throw QueryErrors.badQuery(e);
        }
        return plan.toJson(point -> epkRange(c, point),
                QueryPlan.range(EffectivePartitionKey.MIN, EffectivePartitionKey.MAX, true, false));
    }

    private static ObjectNode epkRange(ContainerInfo c, List<JsonNode> point) {
        ArrayNode components = Json.NODES.arrayNode();
        point.forEach(components::add);
        PartitionKeyValue value = PartitionKeyValue.fromJson(components);
        String epk = EffectivePartitionKey.of(c.partitionKey(), value);
        return value.size() < c.partitionKey().levels()
                ? QueryPlan.range(epk, EpkRange.forPrefix(epk).maxExclusive(), true, false)
                : QueryPlan.range(epk, epk, true, true);
    }
}
