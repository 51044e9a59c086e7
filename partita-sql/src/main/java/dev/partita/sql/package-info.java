/**
 * Public entry point of the query language: {@link dev.partita.sql.Sql} parses query text into an
 * immutable, compiled {@link dev.partita.sql.SqlQuery} that can be executed many times over Jackson
 * {@code JsonNode} items; {@link dev.partita.sql.EvalContext} carries the caller's clock and
 * {@link dev.partita.sql.SqlException} reports every syntax, validation and evaluation error. The
 * ANTLR-generated lexer/parser ({@code CosmosSql*}) also land here because the grammar lives at
 * {@code src/main/antlr4/dev/partita/sql}; they are not API. This module depends on nothing of
 * Partita's: the engine depends on it, never the reverse.
 */
package dev.partita.sql;
