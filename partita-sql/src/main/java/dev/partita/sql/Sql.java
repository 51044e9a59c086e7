package dev.partita.sql;

import dev.partita.sql.eval.Compiler;
import dev.partita.sql.parse.Parsing;
import dev.partita.sql.parse.QueryLimits;

/**
 * Entry point: parse query text once into a reusable, thread-safe {@link SqlQuery}.
 *
 * <pre>{@code
 * SqlQuery q = Sql.parse("SELECT VALUE c.name FROM c WHERE c.age > @min");
 * List<JsonNode> rows = q.execute(items, Map.of("@min", IntNode.valueOf(18)), EvalContext.of(clock));
 * }</pre>
 */
public final class Sql {
    private Sql() {
    }

    /**
     * Parses, validates and compiles a query within the service's limits ({@link QueryLimits#DEFAULTS}).
     *
     * @throws SqlException for syntax errors (code SC1001, with position), validation errors, unknown functions, and a
     *                      text past the limits (larger than 512 KB, nested too deeply, expressions too deep)
     */
    public static SqlQuery parse(String text) {
        return parse(text, QueryLimits.DEFAULTS);
    }

    /** As {@link #parse(String)}, within these limits (an account's own, or a test's). */
    public static SqlQuery parse(String text, QueryLimits limits) {
        return Parsing.parse(text, limits, (ast, large) -> new SqlQuery(text, ast, Compiler.compile(ast), large));
    }

    /**
     * Parses a patch condition, {@code "FROM c WHERE ..."} (no SELECT), as {@code SELECT * FROM c WHERE ...};
     * use {@link SqlQuery#matches} on the result.
     *
     * @throws SqlException as {@link #parse}
     */
    public static SqlQuery parseCondition(String text) {
        return parseCondition(text, QueryLimits.DEFAULTS);
    }

    /** As {@link #parseCondition(String)}, within these limits. */
    public static SqlQuery parseCondition(String text, QueryLimits limits) {
        return Parsing.parseCondition(text, limits,
                (ast, large) -> new SqlQuery(text, ast, Compiler.compile(ast), large));
    }
}
