package dev.partita.sql.parse;

/**
 * The limits on a query's text, checked while it is parsed. They live here, in the query language module, because
 * the language module cannot see core's {@code Limits}; {@code Sql.parse(text, limits)} takes them as a parameter so
 * that the engine can pass an account's own values, and {@link #DEFAULTS} holds the service's.
 *
 * @param maxQueryTextBytes  largest query text, in UTF-8 bytes: 512 KB, the service's documented "maximum length of
 *                           SQL query" (Azure Cosmos DB service quotas, SQL query limits; capacity.md §3)
 * @param maxNestingDepth    deepest nesting of brackets, parentheses, braces (and so subqueries and function calls),
 *                           prefix operators and conditional expressions, counted on the tokens before parsing: 128.
 *                           The service documents no number; it answers 400 to 500 levels. 128 is the service's
 *                           documented nesting depth of a JSON document, so any value a query can build and store fits
 * @param maxExpressionDepth deepest expression tree after parsing, where a chain of n binary operators ({@code a OR b
 *                           OR ...}, {@code 1 + 1 + ...}) or n member accesses is n levels: 1,000. The service documents
 *                           none today (it once documented 2,000 ANDs and 2,000 ORs per query); it answers 400 to a
 *                           chain of 3,000. Longer lists of alternatives belong in {@code IN (...)}, which is flat
 */
public record QueryLimits(int maxQueryTextBytes, int maxNestingDepth, int maxExpressionDepth) {
    /** The service's limits. */
    public static final QueryLimits DEFAULTS = new QueryLimits(512 * 1024, 128, 1_000);

    public QueryLimits {
        if (maxQueryTextBytes < 1 || maxNestingDepth < 1 || maxExpressionDepth < 1) {
            throw new IllegalArgumentException("Query limits must be positive.");
        }
    }
}
