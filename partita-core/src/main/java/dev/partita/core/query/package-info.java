/**
 * Query execution: the scope a query runs on (physical partition, logical partition, container), paging with
 * continuation tokens, and, with the query issue's later parts, index use and the SDK's query plans. The language
 * itself (parsing, evaluation) is {@code partita-sql}'s; this package decides which items it sees.
 */
package dev.partita.core.query;
