/**
 * From text to a validated syntax tree: runs the ANTLR-generated {@code CosmosSqlLexer}/{@code CosmosSqlParser}
 * (two-stage, SLL first), turns syntax errors into {@code SqlException}s with code SC1001 and a position
 * ({@link dev.partita.sql.parse.SyntaxErrors}), builds the immutable {@code dev.partita.sql.ast} tree
 * ({@link dev.partita.sql.parse.AstBuilder}) and applies the language's static rules
 * ({@link dev.partita.sql.parse.Validator}: SELECT * placement, GROUP BY/aggregate rules, ORDER BY on paths,
 * TOP/OFFSET/LIMIT ranges). Internal; depends on {@code ast}, {@code value} and {@code functions}.
 */
package dev.partita.sql.parse;
