/**
 * The immutable syntax tree of one Cosmos DB NoSQL query: {@link dev.partita.sql.ast.Query} and its
 * clauses, and the sealed {@link dev.partita.sql.ast.Expr} family of scalar expressions, all Java
 * records so that structural equality (used e.g. to match select items against GROUP BY keys) comes
 * for free. Values are plain data: built by {@code dev.partita.sql.parse}, validated there, compiled
 * by {@code dev.partita.sql.eval}, and readable by the query-plan work. Depends only on Jackson (for
 * literal values); nothing here evaluates anything.
 */
package dev.partita.sql.ast;
