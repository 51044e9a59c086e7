package dev.partita.core.index.vector;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.sql.search.DistanceFunction;
import dev.partita.sql.search.VectorDataType;
import dev.partita.sql.search.VectorEmbedding;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container's {@code vectorEmbeddingPolicy} with the indexing policy's {@code vectorIndexes}, validated: every
 * embedding names a path, a data type, its dimensions and a distance function; every vector index names an embedded
 * path that the range index excludes, a known type, and fits the type's dimension limit.
 */
public final class VectorPolicy {
    /** The most dimensions a {@code flat} index holds (vector indexing documentation). */
    public static final int MAX_FLAT_DIMENSIONS = 505;
    /** The most dimensions an embedding, a {@code quantizedFlat} or a {@code diskANN} index holds. */
    public static final int MAX_DIMENSIONS = 4096;
    static final int MIN_SEARCH_LIST = 25;
    static final int MAX_SEARCH_LIST = 500;
    static final int MAX_QUANTIZATION_BYTES = 512;

    public static final VectorPolicy NONE = new VectorPolicy(Map.of(), Map.of());

    /** One vector index: the embedded path and how it is searched. */
    public record VectorIndex(String path, VectorIndexType type) {
    }

    private final Map<String, VectorEmbedding> embeddings;
    private final Map<String, VectorIndex> indexes;

    private VectorPolicy(Map<String, VectorEmbedding> embeddings, Map<String, VectorIndex> indexes) {
        this.embeddings = embeddings;
        this.indexes = indexes;
    }

    public VectorEmbedding embedding(String path) {
        return embeddings.get(path);
    }

    /** The vector index of the path, or null. */
    public VectorIndex index(String path) {
        return indexes.get(path);
    }

    public List<VectorIndex> indexes() {
        return List.copyOf(indexes.values());
    }

    /** Parses and validates; every problem is a 400. */
    public static VectorPolicy parse(JsonNode embeddingPolicy, JsonNode indexingPolicy) {
        Map<String, VectorEmbedding> embeddings = embeddings(embeddingPolicy);
        JsonNode list = indexingPolicy == null ? null : indexingPolicy.get("vectorIndexes");
        Map<String, VectorIndex> indexes = new LinkedHashMap<>();
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw ServiceException.badRequest("The indexing policy's 'vectorIndexes' must be an array.");
            }
            for (JsonNode entry : list) {
                VectorIndex index = index(entry, embeddings);
                if (indexes.putIfAbsent(index.path(), index) != null) {
                    throw ServiceException.badRequest("The vector index path '" + index.path() + "' appears more "
                            + "than once in 'vectorIndexes'.");
                }
            }
        }
        return embeddings.isEmpty() && indexes.isEmpty() ? NONE : new VectorPolicy(embeddings, indexes);
    }

    private static Map<String, VectorEmbedding> embeddings(JsonNode policy) {
        Map<String, VectorEmbedding> out = new LinkedHashMap<>();
        if (policy == null || policy.isNull()) {
            return out;
        }
        JsonNode list = policy.get("vectorEmbeddings");
        if (!policy.isObject() || list == null || !list.isArray()) {
            throw ServiceException.badRequest("The container's 'vectorEmbeddingPolicy' must be an object with an "
                    + "array 'vectorEmbeddings'.");
        }
        for (JsonNode e : list) {
            String path = path(e, "vector embedding");
            VectorDataType type = VectorDataType.parse(e.path("dataType").asText(null));
            if (type == null) {
                throw ServiceException.badRequest("Vector Embedding Policy has invalid DataType:"
                        + e.path("dataType").asText("") + " at '" + path + "'; use float32, float16, int8 or uint8.");
            }
            JsonNode d = e.path("dimensions");
            if (!d.isIntegralNumber() || d.asLong() < 1) {
                throw ServiceException.badRequest("Vector Embedding Policy has invalid Dimensions:" + d.asText()
                        + ", it should be positive integer (the embedding at '" + path + "').");
            }
            if (d.asLong() > MAX_DIMENSIONS) {
                throw ServiceException.badRequest("Vector Embedding Policy has Dimensions:" + d.asText()
                        + " which is more than max:" + MAX_DIMENSIONS + " (the embedding at '" + path + "').");
            }
            DistanceFunction distance = DistanceFunction.parse(e.path("distanceFunction").asText(null));
            if (distance == null) {
                throw ServiceException.badRequest("Vector Embedding Policy has invalid DistanceFunction:"
                        + e.path("distanceFunction").asText("") + " at '" + path + "'; use cosine, dotproduct or "
                        + "euclidean.");
            }
            if (out.putIfAbsent(path, new VectorEmbedding(path, type, d.asInt(), distance)) != null) {
                throw ServiceException.badRequest("The vector embedding path '" + path + "' appears more than once "
                        + "in 'vectorEmbeddings'.");
            }
        }
        return out;
    }

    private static VectorIndex index(JsonNode e, Map<String, VectorEmbedding> embeddings) {
        String path = path(e, "vector index");
        VectorEmbedding embedding = embeddings.get(path);
        if (embedding == null) {
            // the service writes the path JSON-escaped (path::\/vector1), as the JavaScript SDK's spec matches
            throw ServiceException.badRequest("The Vector Indexing Policy's path::" + path.replace("/", "\\/")
                    + " not matching in Embedding's path: add it to 'vectorEmbeddingPolicy.vectorEmbeddings'.");
        }
        VectorIndexType type = VectorIndexType.parse(e.path("type").asText(null));
        if (type == null) {
            throw ServiceException.badRequest("Vector Indexing Policy's Index Type::" + e.path("type").asText("")
                    + " is invalid at '" + path + "'; use flat, quantizedFlat or diskANN.");
        }
        int max = type == VectorIndexType.FLAT ? MAX_FLAT_DIMENSIONS : MAX_DIMENSIONS;
        if (embedding.dimensions() > max) {
            throw ServiceException.badRequest("The vector index at '" + path + "' of type " + type.policyName()
                    + " supports at most " + max + " dimensions; the embedding has " + embedding.dimensions() + ".");
        }
        JsonNode q = e.get("quantizationByteSize");
        if (q != null && (type == VectorIndexType.FLAT || !q.isIntegralNumber() || q.asInt() < 1
                || q.asInt() > Math.min(embedding.dimensions(), MAX_QUANTIZATION_BYTES))) {
            throw ServiceException.badRequest("The vector index at '" + path + "': 'quantizationByteSize' applies to "
                    + "quantizedFlat and diskANN indexes and must be between 1 and the smaller of the dimensions and "
                    + MAX_QUANTIZATION_BYTES + ".");
        }
        JsonNode l = e.get("indexingSearchListSize");
        if (l != null && (type != VectorIndexType.DISKANN || !l.isIntegralNumber() || l.asInt() < MIN_SEARCH_LIST
                || l.asInt() > MAX_SEARCH_LIST)) {
            throw ServiceException.badRequest("The vector index at '" + path + "': 'indexingSearchListSize' applies to"
                    + " diskANN indexes and must be between " + MIN_SEARCH_LIST + " and " + MAX_SEARCH_LIST + ".");
        }
        JsonNode shard = e.get("vectorIndexShardKey");
        if (shard != null && (type == VectorIndexType.FLAT || !shard.isArray() || shard.size() > 1
                || shard.size() == 1 && !shard.get(0).asText("").startsWith("/"))) {
            throw ServiceException.badRequest("The vector index at '" + path + "': 'vectorIndexShardKey' applies to "
                    + "quantizedFlat and diskANN indexes and must be an array holding one path.");
        }
        return new VectorIndex(path, type);
    }

    static String path(JsonNode e, String what) {
        JsonNode p = e.get("path");
        if (p == null || !p.isTextual() || !p.asText().startsWith("/") || p.asText().length() < 2
                || p.asText().contains("*") || p.asText().contains("?") || p.asText().endsWith("/")) {
            throw ServiceException.badRequest("Every " + what + " needs a 'path' that starts with '/' and names a "
                    + "property, without wildcards.");
        }
        return p.asText();
    }
}
