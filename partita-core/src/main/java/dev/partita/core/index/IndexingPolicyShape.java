package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The indexing policy a container stores and returns: the policy as given, with the defaults the service fills in
 * and its rewriting of the legacy shapes older SDKs and tools still send, so that a read returns what the service
 * would return. What the service returns, from the SDKs' own tests against it (the Python SDK's
 * {@code test_crud_container.py}, the JS SDK's {@code container.spec.ts}/{@code spatial.spec.ts}, the CosmosDB
 * PowerShell module's integration tests):
 * <ul>
 *   <li>mode {@code lazy} is read back as {@code consistent} (new containers cannot be lazy since June 2020);</li>
 *   <li>the legacy root {@code "/"} is {@code "/*"};</li>
 *   <li>{@code indexes} on an included path ({@code kind} Hash/Range/Spatial, {@code dataType}, {@code precision})
 *       are validated and dropped (every path gets range indexes on strings and numbers); a {@code Spatial} one
 *       becomes a {@code spatialIndexes} entry on that path;</li>
 *   <li>{@code /"_etag"/?} is appended to the excluded paths unless the policy excludes or includes it already;</li>
 *   <li>mode {@code none} keeps no paths and is never automatic.</li>
 * </ul>
 */
public final class IndexingPolicyShape {
    private static final Set<String> MODES = Set.of("consistent", "lazy", "none");
    private static final List<String> SCALAR_TYPES = List.of("String", "Number");
    /** Legacy index precision: -1 (maximum) or a byte count up to this (the old Range/Hash limit). */
    private static final int MAX_PRECISION = 100;
    private static final String ETAG = "/\"_etag\"/?";

    private IndexingPolicyShape() {
    }

    /** The policy to store for this container body's {@code indexingPolicy} and {@code geospatialConfig}. */
    public static ObjectNode of(JsonNode given, JsonNode geospatialConfig) {
        if (given != null && !given.isNull() && !given.isObject()) {
            throw ServiceException.badRequest("The container's 'indexingPolicy' must be a JSON object.");
        }
        ObjectNode p = given instanceof ObjectNode o ? o.deepCopy() : Json.object();
        String mode = p.path("indexingMode").asText("consistent").toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw ServiceException.badRequest("The indexing mode must be 'consistent', 'lazy' or 'none'.");
        }
        boolean automatic = p.path("automatic").asBoolean(true);
        if ("none".equals(mode) && automatic && p.has("automatic")) {
            // the service's message (seen through the Table SDK: azure-cosmos-table-dotnet#68)
            throw ServiceException.badRequest("Indexing mode value cannot be 'none' when automatic indexing is"
                    + " specified as 'true'.");
        }
        p.put("indexingMode", "lazy".equals(mode) ? "consistent" : mode);
        p.put("automatic", !"none".equals(mode) && automatic);
        ArrayNode included = array(p, "includedPaths");
        ArrayNode excluded = array(p, "excludedPaths");
        ArrayNode spatial = array(p, "spatialIndexes");
        for (JsonNode entry : included) {
            legacyIndexes(entry, spatial);
        }
        for (JsonNode entry : excluded) {
            if (entry instanceof ObjectNode o) {
                o.remove("indexes");
            }
        }
        rootSpelling(included);
        rootSpelling(excluded);
        // the root defaults to included unless the policy excludes it ("index nothing but what I list")
        if (included.isEmpty() && !names(excluded, IndexPath.parse("/*"))) {
            included.addObject().put("path", "/*");
        }
        if ("none".equals(mode)) {
            // the service keeps no paths for an unindexed container
            included.removeAll();
            excluded.removeAll();
        } else if (!names(excluded, IndexPath.parse(ETAG)) && !names(included, IndexPath.parse(ETAG))) {
            // a policy that includes it keeps it included (Spring Data's IndexPolicyUpdateIT reads it back so)
            excluded.addObject().put("path", ETAG);
        }
        SpatialIndexes.validate(spatial, geospatialConfig);
        if (spatial.isEmpty() && !(given != null && given.has("spatialIndexes"))) {
            p.remove("spatialIndexes");
        }
        return p;
    }

    private static ArrayNode array(ObjectNode p, String field) {
        JsonNode node = p.get(field);
        if (node == null || node.isNull()) {
            return p.putArray(field);
        }
        if (!node.isArray()) {
            throw ServiceException.badRequest("The indexing policy's '" + field + "' must be an array.");
        }
        for (JsonNode entry : node) {
            if (!entry.isObject() || !entry.path("path").isTextual()) {
                throw ServiceException.badRequest("Every entry of the indexing policy's '" + field + "' needs a"
                        + " string 'path'.");
            }
        }
        return (ArrayNode) node;
    }

    /** Validates an included path's legacy {@code indexes}, moves its spatial ones to the spatial indexes, drops it. */
    private static void legacyIndexes(JsonNode entry, ArrayNode spatial) {
        JsonNode indexes = entry.get("indexes");
        ((ObjectNode) entry).remove("indexes");
        if (indexes == null || indexes.isNull()) {
            return;
        }
        String path = entry.get("path").asText();
        if (!indexes.isArray()) {
            throw ServiceException.badRequest("The 'indexes' of the included path '" + path + "' must be an array.");
        }
        List<String> spatialTypes = new ArrayList<>();
        for (JsonNode index : indexes) {
            String kind = canonical(index.path("kind").asText(""), List.of("Hash", "Range", "Spatial"));
            if (kind == null) {
                throw ServiceException.badRequest("The index kind of the included path '" + path + "' must be"
                        + " 'Hash', 'Range' or 'Spatial'.");
            }
            boolean isSpatial = kind.equals("Spatial");
            String dataType = canonical(index.path("dataType").asText(""),
                    isSpatial ? SpatialIndexes.TYPES : SCALAR_TYPES);
            if (dataType == null) {
                throw ServiceException.badRequest("The data type of a " + kind + " index on the included path '"
                        + path + "' must be one of " + (isSpatial ? SpatialIndexes.TYPES : SCALAR_TYPES) + ".");
            }
            JsonNode precision = index.get("precision");
            if (precision != null && !precision.isNull() && !isSpatial && !validPrecision(precision)) {
                throw ServiceException.badRequest("The precision of an index on the included path '" + path
                        + "' must be -1 (maximum) or between 1 and " + MAX_PRECISION + ".");
            }
            if (isSpatial) {
                spatialTypes.add(dataType);
            }
        }
        if (!spatialTypes.isEmpty() && !names(spatial, IndexPath.parse(path))) {
            ObjectNode s = spatial.addObject();
            s.put("path", IndexPath.LEGACY_ROOT.equals(path) ? "/*" : path);
            spatialTypes.forEach(s.putArray("types")::add);
        }
    }

    private static boolean validPrecision(JsonNode precision) {
        if (!precision.isIntegralNumber() || !precision.canConvertToInt()) {
            return false;
        }
        int v = precision.intValue();
        return v == -1 || v >= 1 && v <= MAX_PRECISION;
    }

    /** The canonical spelling of {@code value} among {@code allowed}, ignoring case, or null. */
    static String canonical(String value, List<String> allowed) {
        for (String a : allowed) {
            if (a.equalsIgnoreCase(value)) {
                return a;
            }
        }
        return null;
    }

    private static void rootSpelling(ArrayNode paths) {
        for (JsonNode entry : paths) {
            if (IndexPath.LEGACY_ROOT.equals(entry.get("path").asText())) {
                ((ObjectNode) entry).put("path", "/*");
            }
        }
    }

    /** True when one of the entries' paths names the same path as {@code path}, however it is spelt. */
    static boolean names(ArrayNode entries, IndexPath path) {
        for (JsonNode entry : entries) {
            String text = entry.path("path").asText(null);
            if (text != null && sameAs(text, path)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameAs(String text, IndexPath path) {
        try {
            return IndexPath.parse(text).identity().equals(path.identity());
        } catch (ServiceException invalid) {
            return false; // reported by the policy's validation, with the service's message
        }
    }
}
