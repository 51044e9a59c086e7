/**
 * Indexing: the container's indexing policy (which paths are indexed, composite indexes), the index terms an item
 * produces under it, their encoding as store keys (ordered by path, then by value in the query language's cross-type
 * order, then by EPK and id), the key ranges a filter predicate maps to, and the walk of a path's distinct strings that
 * answers a string function from the terms alone. The item layer writes the entries in the
 * same store batch as the item; the query layer reads them. Depends on {@code store} and the language's value rules and
 * predicates; nothing in {@code account}, {@code item} or {@code query}.
 */
package dev.partita.core.index;
