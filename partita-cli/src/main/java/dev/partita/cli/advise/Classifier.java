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

    static Access classify(Workload.Operation op, Candidate candidate, ObjectNode example) {
        return switch (op.type()) {
            case WRITE -> Access.POINT;
            case READ -> candidate.addressableBy(op.knows()) ? Access.POINT : Access.FAN_OUT;
            case QUERY -> query(op, candidate, example);
        };
    }

    private static Access query(Workload.Operation op, Candidate candidate, ObjectNode example) {
        QueryPlan plan = QueryPlanner.plan(Sql.parse(op.query()), candidate.paths(), parameters(op, example));
        if (plan.partitionKeyPoints().isEmpty()) {
            return Access.FAN_OUT;
        }
        List<List<JsonNode>> points = plan.partitionKeyPoints().get();
        if (points.stream().anyMatch(p -> p.size() < candidate.paths().size())) {
            return Access.PREFIX;
        }
        return points.size() == 1 ? Access.SINGLE_PARTITION : Access.FEW_PARTITIONS;
    }

    /** The query's parameters, each taken from the named field of an example item. */
    static Map<String, JsonNode> parameters(Workload.Operation op, ObjectNode example) {
        Map<String, JsonNode> params = new HashMap<>();
        op.parameters().forEach((name, field) -> params.put(name, example.path(field)));
        return params;
    }
}
