/**
 * Evaluation: the compiler that turns a validated {@code dev.partita.sql.ast.Query} once into a tree of
 * {@link dev.partita.sql.eval.Eval} nodes with aliases resolved to frame slots and parameters to
 * indexes ({@link dev.partita.sql.eval.Compiler}), and the push-based executor
 * ({@link dev.partita.sql.eval.CompiledQuery}) that runs FROM/JOIN, WHERE, GROUP BY with aggregates,
 * ORDER BY, DISTINCT, OFFSET/LIMIT and TOP over Jackson {@code JsonNode} items without copying them.
 * <p>
 * <b>undefined</b> is represented by Java {@code null} everywhere in this package (an {@code Eval}
 * returning {@code null} means "undefined"); JSON null is {@code NullNode}. Internal: used by
 * {@code dev.partita.sql} only; depends on {@code ast}, {@code value} and {@code functions}.
 */
package dev.partita.sql.eval;
