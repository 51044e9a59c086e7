/**
 * Vector and full-text search in the query language: {@code VectorDistance}, the {@code FullTextContains} family,
 * {@code FullTextScore} (BM25) and the internal forms the gateway's plans send to each partition
 * ({@code _VectorScore}, {@code _FullTextScore} with corpus statistics, {@code _FullTextWordCount}). What a
 * container declares about its vectors and texts reaches the functions as a {@link dev.partita.sql.search.SearchPolicy}
 * through the evaluation context; this package knows nothing of containers.
 */
package dev.partita.sql.search;
