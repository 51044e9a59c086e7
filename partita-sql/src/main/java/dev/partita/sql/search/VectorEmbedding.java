package dev.partita.sql.search;

/**
 * One entry of a container's {@code vectorEmbeddingPolicy.vectorEmbeddings}.
 *
 * @param path       the document path as the policy writes it ({@code /embedding})
 * @param dimensions the length every vector at the path has
 */
public record VectorEmbedding(String path, VectorDataType dataType, int dimensions, DistanceFunction distance) {

    /**
     * A JSON array as a vector of this embedding's data type, or null when it is not one (not an array, an element
     * that is not a number, or a number the data type cannot hold).
     */
    public float[] vectorOf(com.fasterxml.jackson.databind.JsonNode v) {
        if (v == null || !v.isArray()) {
            return null;
        }
        float[] out = new float[v.size()];
        for (int i = 0; i < out.length; i++) {
            if (!v.get(i).isNumber()) {
                return null;
            }
            out[i] = dataType.convert(v.get(i).doubleValue());
            if (Float.isNaN(out[i])) {
                return null;
            }
        }
        return out;
    }
}
