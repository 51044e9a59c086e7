package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.index.fulltext.FullTextPolicy;
import dev.partita.core.index.vector.VectorPolicy;
import dev.partita.core.json.Json;
import dev.partita.sql.search.SearchPolicy;
import dev.partita.sql.search.VectorEmbedding;

/**
 * A container's vector and full-text policies together, as the query language's search functions read them. Parsed
 * from the container body (validation happens when the body is accepted: {@link #validate}).
 */
public record ContainerSearch(VectorPolicy vectors, FullTextPolicy fullText) implements SearchPolicy {
    public static final ContainerSearch NONE = new ContainerSearch(VectorPolicy.NONE, FullTextPolicy.NONE);

    /** The last body parsed: queries and writes of one container ask again and again. */
    private static volatile Object[] last = {null, NONE};

    /** The search policies of a container body (as stored). */
    public static ContainerSearch of(ObjectNode body) {
        Object[] l = last;
        if (l[0] == body) {
            return (ContainerSearch) l[1];
        }
        ContainerSearch s = parse(body);
        last = new Object[] {body, s};
        return s;
    }

    /** Rejects a body whose vector or full-text policies the service would reject (400). */
    public static void validate(ObjectNode body) {
        parse(body);
    }

    /**
     * Rejects a replace whose vector indexes differ from the container's (missing counts as none), before anything
     * else of the body is judged: the service's words, which the JS and Python SDKs' tests assert for a body that
     * changes an index's type and names no partition key or embedding policy.
     */
    public static void checkVectorIndexesKept(ObjectNode before, JsonNode after) {
        if (!vectorIndexes(before).equals(vectorIndexes(after))) {
            throw ServiceException.badRequest("Vector Indexing Policy cannot be changed in Collection Replace: give "
                    + "the container's 'vectorIndexes' as they are.");
        }
    }

    private static JsonNode vectorIndexes(JsonNode body) {
        JsonNode list = body == null ? null : body.path("indexingPolicy").get("vectorIndexes");
        return list == null || list.isNull() ? Json.NODES.arrayNode() : list;
    }

    /**
     * Rejects a replace that changes what the service keeps fixed after creation: the vector embedding policy (the
     * stored vectors were indexed with its dimensions and types).
     */
    public static void checkReplace(ObjectNode before, ObjectNode after) {
        JsonNode a = before.get("vectorEmbeddingPolicy");
        JsonNode b = after.get("vectorEmbeddingPolicy");
        boolean emptyA = a == null || a.isNull() || a.path("vectorEmbeddings").isEmpty();
        boolean emptyB = b == null || b.isNull() || b.path("vectorEmbeddings").isEmpty();
        if (!(emptyA && emptyB) && (emptyA != emptyB || !a.equals(b))) {
            throw ServiceException.badRequest("The vector embedding policy of a container cannot be changed after "
                    + "the container is created.");
        }
    }

    private static ContainerSearch parse(ObjectNode body) {
        JsonNode indexing = body.get("indexingPolicy");
        VectorPolicy vectors = VectorPolicy.parse(body.get("vectorEmbeddingPolicy"), indexing);
        FullTextPolicy fullText = FullTextPolicy.parse(body.get("fullTextPolicy"), indexing);
        return vectors == VectorPolicy.NONE && fullText == FullTextPolicy.NONE ? NONE
                : new ContainerSearch(vectors, fullText);
    }

    @Override
    public VectorEmbedding embedding(String path) {
        return vectors.embedding(path);
    }

    @Override
    public String language(String path) {
        return fullText.language(path);
    }
}
