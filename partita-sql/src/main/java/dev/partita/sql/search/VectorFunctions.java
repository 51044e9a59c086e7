package dev.partita.sql.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.eval.Eval;
import dev.partita.sql.functions.FunctionEnv;

import java.util.Map;

/**
 * {@code VectorDistance(v1, v2 [, bruteForce [, options]])} and the gateway's internal {@code _VectorScore}: the
 * similarity of two vectors by the distance function of the options, else of the embedding policy of the path the
 * first (or second) argument reads, else cosine; elements typed likewise (default float32). Arguments that are not
 * numeric arrays of one length, or elements the data type cannot hold, give undefined, as the service does.
 */
final class VectorFunctions {
    private VectorFunctions() {
    }

    /** The options object (a constant) checked once; null when absent. */
    record Options(DistanceFunction distance, VectorDataType dataType) {
        static Options parse(JsonNode o) {
            if (o == null) {
                return null;
            }
            if (!o.isObject()) {
                throw new SqlException("The fourth argument of VectorDistance must be an object literal with the "
                        + "options distanceFunction, dataType, searchListSizeMultiplier, "
                        + "quantizedVectorListMultiplier or filterPriority.");
            }
            DistanceFunction distance = null;
            VectorDataType dataType = null;
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                switch (e.getKey()) {
                    case "distanceFunction" -> {
                        distance = DistanceFunction.parse(e.getValue().asText(null));
                        if (distance == null) {
                            throw new SqlException("The VectorDistance option distanceFunction must be one of "
                                    + "'cosine', 'dotproduct' or 'euclidean'.");
                        }
                    }
                    case "dataType" -> {
                        dataType = VectorDataType.parse(e.getValue().asText(null));
                        if (dataType == null) {
                            throw new SqlException("The VectorDistance option dataType must be one of 'float32', "
                                    + "'float16', 'int8' or 'uint8'.");
                        }
                    }
                    case "searchListSizeMultiplier", "quantizedVectorListMultiplier" ->
                            multiplier(e.getKey(), e.getValue());
                    case "filterPriority" -> {
                        if (!e.getValue().isNumber() || e.getValue().doubleValue() < 0
                                || e.getValue().doubleValue() > 1) {
                            throw new SqlException("The VectorDistance option filterPriority must be a number "
                                    + "between 0 and 1.");
                        }
                    }
                    default -> throw new SqlException("'" + e.getKey() + "' is not an option of VectorDistance; "
                            + "valid options are distanceFunction, dataType, searchListSizeMultiplier, "
                            + "quantizedVectorListMultiplier and filterPriority.");
                }
            }
            return new Options(distance, dataType);
        }

        private static void multiplier(String name, JsonNode v) {
            if (!v.isIntegralNumber() || v.intValue() < 1 || v.intValue() > 100) {
                throw new SqlException("The VectorDistance option " + name + " must be an integer from 1 to 100.");
            }
        }
    }

    /**
     * The call compiled. With {@code closeness} the value is turned so that closer is always larger (the ORDER BY
     * key, sorted descending); otherwise it is what the function returns.
     */
    static Eval compile(Eval[] args, String[] paths, JsonNode constantOptions, boolean closeness) {
        if (args.length < 2 || args.length > 4) {
            throw new SqlException("SC2050", "The VECTORDISTANCE function requires 2 to 4 argument(s).");
        }
        Options options = Options.parse(constantOptions);
        String path = paths[0] != null ? paths[0] : paths[1];
        Eval a = args[0];
        Eval b = args[1];
        // the third argument (bruteForce) changes nothing in an exact search; the service does not refuse one that
        // is no boolean either: the Java SDK's NonStreamingOrderByQueryVectorSearchTest passes the options object
        // there and expects the policy's distance function
        return f -> {
            FunctionEnv env = (FunctionEnv) f;
            VectorEmbedding embedding = path == null ? null : env.search().embedding(path);
            DistanceFunction distance = options != null && options.distance() != null ? options.distance()
                    : embedding != null ? embedding.distance() : DistanceFunction.COSINE;
            VectorDataType type = options != null && options.dataType() != null ? options.dataType()
                    : embedding != null ? embedding.dataType() : VectorDataType.FLOAT32;
            float[] x = vector(a.eval(f), type);
            float[] y = vector(b.eval(f), type);
            if (x == null || y == null || x.length != y.length || x.length == 0) {
                return null;
            }
            env.searchWork(x.length);
            return DoubleNode.valueOf(closeness ? distance.closeness(x, y) : distance.apply(x, y));
        };
    }

    /** The distance function an ORDER BY on this call sorts by, given the container's policy. */
    static DistanceFunction distanceOf(String[] paths, JsonNode constantOptions, SearchPolicy policy) {
        Options options = Options.parse(constantOptions);
        if (options != null && options.distance() != null) {
            return options.distance();
        }
        String path = paths[0] != null ? paths[0] : paths[1];
        VectorEmbedding embedding = path == null ? null : policy.embedding(path);
        return embedding != null ? embedding.distance() : DistanceFunction.COSINE;
    }

    /** The elements as the data type holds them, or null when the value is not such a vector. */
    static float[] vector(JsonNode v, VectorDataType type) {
        if (v == null || !v.isArray()) {
            return null;
        }
        float[] out = new float[v.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode e = v.get(i);
            if (!e.isNumber()) {
                return null;
            }
            out[i] = type.convert(e.doubleValue());
            if (Float.isNaN(out[i])) {
                return null;
            }
        }
        return out;
    }
}
