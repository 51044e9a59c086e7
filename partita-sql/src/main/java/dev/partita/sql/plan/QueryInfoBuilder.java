package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code queryInfo} object of a plan (query-plans.md §1.1), written with the real planner's field names and
 * order; every field starts at its "no client-side work" value.
 */
final class QueryInfoBuilder {
    String distinctType = "None";
    Long top;
    Long offset;
    Long limit;
    final List<String> orderBy = new ArrayList<>();
    final List<String> orderByExpressions = new ArrayList<>();
    final List<String> groupByExpressions = new ArrayList<>();
    final List<String> groupByAliases = new ArrayList<>();
    final List<String> aggregates = new ArrayList<>();
    /** alias → aggregate operator, or null for a plain value. */
    final Map<String, String> groupByAliasToAggregateType = new LinkedHashMap<>();
    String rewrittenQuery = "";
    boolean hasSelectValue;
    /** Non-null for DCOUNT: the alias of the count ("" for none). */
    String dCountAlias;
    /** Vector search: each range returns its best rows and the SDK keeps the best of all (no resume). */
    boolean hasNonStreamingOrderBy;

    ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("distinctType", distinctType);
        o.put("top", top);
        o.put("offset", offset);
        o.put("limit", limit);
        o.set("orderBy", strings(orderBy));
        o.set("orderByExpressions", strings(orderByExpressions));
        o.set("groupByExpressions", strings(groupByExpressions));
        o.set("groupByAliases", strings(groupByAliases));
        o.set("aggregates", strings(aggregates));
        ObjectNode map = o.putObject("groupByAliasToAggregateType");
        groupByAliasToAggregateType.forEach(map::put);
        o.put("rewrittenQuery", rewrittenQuery);
        o.put("hasSelectValue", hasSelectValue);
        if (dCountAlias == null) {
            o.putNull("dCountInfo");
        } else {
            o.putObject("dCountInfo").put("dCountAlias", dCountAlias);
        }
        o.put("hasNonStreamingOrderBy", hasNonStreamingOrderBy);
        return o;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        values.forEach(a::add);
        return a;
    }
}
