package dev.partita.sql;

import dev.partita.sql.ast.Query;
import dev.partita.sql.eval.Compiler;
import dev.partita.sql.parse.Parsing;

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
     * Parses, validates and compiles a query.
     *
     * @throws SqlException for syntax errors (code SC1001, with position), validation errors and unknown functions
     */
    public static SqlQuery parse(String text) {
        Query ast = Parsing.parse(text);
        return new SqlQuery(text, ast, Compiler.compile(ast));
    }

    /**
     * Parses a patch condition, {@code "FROM c WHERE ..."} (no SELECT), as {@code SELECT * FROM c WHERE ...};
     * use {@link SqlQuery#matches} on the result.
     *
     * @throws SqlException as {@link #parse}
     */
    public static SqlQuery parseCondition(String text) {
        Query ast = Parsing.parseCondition(text);
        return new SqlQuery(text, ast, Compiler.compile(ast));
    }
}
