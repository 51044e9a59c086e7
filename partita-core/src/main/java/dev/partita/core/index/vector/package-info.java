/**
 * Vector search in the engine: the container's vector embedding policy and vector indexes (validated as the service
 * validates them) and the approximate nearest-neighbour index that serves {@code ORDER BY VectorDistance} for the
 * {@code quantizedFlat} and {@code diskANN} index types.
 */
package dev.partita.core.index.vector;
