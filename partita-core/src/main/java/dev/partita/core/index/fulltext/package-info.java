/** Full-text search in the engine: the container's full-text policy and full-text indexes, validated. */
package dev.partita.core.index.fulltext;
