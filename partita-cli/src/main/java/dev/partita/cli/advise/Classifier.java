package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;
import dev.partita.sql.plan.QueryPlan;
import dev.partita.sql.plan.QueryPlanner;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Classifies an operation under a candidate key: a read is a point read when the caller knows the key's fields and
 * otherwise a query by id over every partition; a query is classified by the partition-key values its filter pins,
 * exactly as the query planner the SDK asks decides it.
 */
final class Classifier {
    private Classifier() {
    }

    static AccessPath classify(Workload.Operation op, Candidate candidate, ObjectNode example) {
        return switch (op.type()) {
            case WRITE -> AccessPath.POINT;
            case READ -> candidate.addressableBy(op.knows()) ? AccessPath.POINT : AccessPath.FAN_OUT;
            case QUERY -> query(op, candidate, example);
        };
    }

    private static AccessPath query(Workload.Operation op, Candidate candidate, ObjectNode example) {
        QueryPlan plan = QueryPlanner.plan(Sql.parse(op.query()), candidate.paths(), parameters(op, example));
        if (plan.partitionKeyPoints().isEmpty()) {
            return AccessPath.FAN_OUT;
        }
        List<List<JsonNode>> points = plan.partitionKeyPoints().get();
        if (points.stream().anyMatch(p -> p.size() < candidate.paths().size())) {
            return AccessPath.PREFIX;
        }
        return points.size() == 1 ? AccessPath.SINGLE_PARTITION : AccessPath.FEW_PARTITIONS;
    }

    /** The query's parameters, each taken from the named field of an example item. */
    static Map<String, JsonNode> parameters(Workload.Operation op, ObjectNode example) {
        Map<String, JsonNode> params = new HashMap<>();
        op.parameters().forEach((name, field) -> params.put(name, example.path(field)));
        return params;
    }
}
