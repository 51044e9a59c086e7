package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Query;
import dev.partita.sql.parse.Validator;
import dev.partita.sql.value.ComputedItem;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A container's {@code computedProperties}: top-level properties derived from each item by a query of the form
 * {@code SELECT VALUE <expr> FROM c}. They are not stored; queries see them on every item (see {@link ComputedItem})
 * and the index holds them only where the policy includes them by name.
 *
 * <p>The rules are the computed-properties documentation's: at most 20, unique names that are not system properties,
 * and a query that reads one item only (a VALUE projection over the root, no JOIN, WHERE, GROUP BY, ORDER BY, TOP,
 * DISTINCT, OFFSET/LIMIT, subqueries, aggregates, user-defined, spatial or non-deterministic functions).
 */
public final class ComputedProperties {
    public static final ComputedProperties NONE = new ComputedProperties(Map.of());

    private static final Set<String> RESERVED = Set.of("id", "_rid", "_ts", "_self", "_etag", "_attachments", "_lsn");
    /** Computed properties use no clock: the non-deterministic functions are refused when they are defined. */
    private static final EvalContext CONTEXT = EvalContext.of(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    private final Map<String, SqlQuery> queries;

    private ComputedProperties(Map<String, SqlQuery> queries) {
        this.queries = queries;
    }

    /** The definitions of a container body (absent or null: none); every problem is a 400. */
    public static ComputedProperties parse(JsonNode defs, int max) {
        if (defs == null || defs.isNull()) {
            return NONE;
        }
        if (!defs.isArray()) {
            throw ServiceException.badRequest("The container's 'computedProperties' must be an array.");
        }
        if (defs.size() > max) {
            throw ServiceException.badRequest("The number of computed properties " + defs.size()
                    + " exceeds the maximum allowed " + max + ".");
        }
        Map<String, SqlQuery> queries = new LinkedHashMap<>();
        for (JsonNode def : defs) {
            JsonNode name = def.get("name");
            JsonNode query = def.get("query");
            if (name == null || !name.isTextual() || name.asText().isEmpty()) {
                throw ServiceException.badRequest("Every computed property needs a non-empty string 'name'.");
            }
            if (query == null || !query.isTextual() || query.asText().isBlank()) {
                throw ServiceException.badRequest("The computed property '" + name.asText() + "' needs a string"
                        + " 'query'.");
            }
            String n = name.asText();
            if (RESERVED.contains(n) || n.contains("/")) {
                throw ServiceException.badRequest("The computed property name '" + n + "' is invalid: it must be a"
                        + " top-level property name other than a system property (" + String.join(", ",
                        RESERVED.stream().sorted().toList()) + ").");
            }
            if (queries.containsKey(n)) {
                throw ServiceException.badRequest("The computed property name '" + n + "' is defined more than once.");
            }
            queries.put(n, compiled(n, query.asText()));
        }
        return new ComputedProperties(Map.copyOf(queries));
    }

    private static SqlQuery compiled(String name, String text) {
        SqlQuery q;
        try {
            q = Sql.parse(text);
        } catch (SqlException e) {
            throw invalidQuery(name, e.getMessage());
        }
        Query ast = q.ast();
        if (!(ast.selection() instanceof Query.Selection.Value value)) {
            throw invalidQuery(name, "the query must project with SELECT VALUE.");
        }
        if (ast.from().size() != 1 || ast.from().get(0).iterate()
                || !(ast.from().get(0).collection() instanceof Query.Collection.Path p) || !p.segments().isEmpty()) {
            throw invalidQuery(name, "the query must read the root item only (FROM c, without JOIN, IN or a path).");
        }
        if (ast.where() != null || !ast.groupBy().isEmpty() || !ast.orderBy().isEmpty() || ast.top() != null
                || ast.distinct() || ast.offset() != null || ast.limit() != null) {
            throw invalidQuery(name, "WHERE, GROUP BY, ORDER BY, TOP, DISTINCT and OFFSET LIMIT are not allowed.");
        }
        Validator.forEachNode(value.expr(), e -> {
            if (e instanceof Expr.Subquery) {
                throw invalidQuery(name, "subqueries are not allowed.");
            }
            if (e instanceof Expr.UdfCall) {
                throw invalidQuery(name, "user-defined functions are not allowed.");
            }
            if (e instanceof Expr.Call call && nonDeterministic(call.name())) {
                throw invalidQuery(name, "aggregate, spatial and non-deterministic functions are not allowed.");
            }
        });
        if (q.hasAggregates()) {
            throw invalidQuery(name, "aggregate, spatial and non-deterministic functions are not allowed.");
        }
        return q;
    }

    private static boolean nonDeterministic(String function) {
        String f = function.toUpperCase(Locale.ROOT);
        return f.startsWith("ST_") || f.startsWith("GETCURRENT") || f.equals("RAND");
    }

    private static ServiceException invalidQuery(String name, String why) {
        return ServiceException.badRequest("The query of computed property '" + name + "' is invalid: " + why);
    }

    public boolean isEmpty() {
        return queries.isEmpty();
    }

    public boolean defines(String name) {
        return queries.containsKey(name);
    }

    /** The item as queries and the index see it: with its computed properties (those that are defined). */
    public JsonNode applyTo(JsonNode item) {
        if (queries.isEmpty() || !(item instanceof ObjectNode stored)) {
            return item;
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        List<JsonNode> one = List.of(stored);
        queries.forEach((name, q) -> {
            List<JsonNode> rows = q.execute(one, Map.of(), CONTEXT);
            if (!rows.isEmpty() && rows.get(0) != null) {
                values.put(name, rows.get(0));
            }
        });
        return ComputedItem.of(stored, values);
    }
}
