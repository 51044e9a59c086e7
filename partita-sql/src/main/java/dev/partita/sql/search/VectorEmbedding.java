package dev.partita.sql.search;

/**
 * One entry of a container's {@code vectorEmbeddingPolicy.vectorEmbeddings}.
 *
 * @param path       the document path as the policy writes it ({@code /embedding})
 * @param dimensions the length every vector at the path has
 */
public record VectorEmbedding(String path, VectorDataType dataType, int dimensions, DistanceFunction distance) {
}
