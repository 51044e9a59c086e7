/**
 * The value model shared by evaluation and the built-in functions: Jackson {@code JsonNode} values
 * with Java {@code null} meaning <b>undefined</b>; {@link dev.partita.sql.value.Values} holds the
 * type order, deep equality/hash, operator and ORDER BY comparisons and the compact JSON text of
 * {@code ToString} and the bound on strings a query builds; {@link dev.partita.sql.value.Num} holds
 * integer-vs-double identity and number text; {@link dev.partita.sql.value.ValueSet} tests membership under deep
 * equality. Depends on Jackson and the module's {@code SqlException} only; everything else in the module may depend
 * on it.
 */
package dev.partita.sql.value;
