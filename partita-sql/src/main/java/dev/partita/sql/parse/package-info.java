/**
 * From text to a validated syntax tree: runs the ANTLR-generated {@code CosmosSqlLexer}/{@code CosmosSqlParser}
 * (two-stage, SLL first), turns syntax errors into {@code SqlException}s with code SC1001 and a position
 * ({@link dev.partita.sql.parse.SyntaxErrors}), builds the immutable {@code dev.partita.sql.ast} tree
 * ({@link dev.partita.sql.parse.AstBuilder}) and applies the language's static rules
 * ({@link dev.partita.sql.parse.Validator}: SELECT * placement, GROUP BY/aggregate rules, ORDER BY on paths,
 * TOP/OFFSET/LIMIT ranges). {@link dev.partita.sql.parse.QueryLimits} bounds the text's size, its nesting and
 * its expression depth, checked without recursion before the stage each protects
 * ({@link dev.partita.sql.parse.QueryComplexity}). Internal; depends on {@code ast}, {@code value} and
 * {@code functions}.
 */
package dev.partita.sql.parse;
