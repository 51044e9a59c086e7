package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import java.util.List;

/**
 * The {@code spatialIndexes} of an indexing policy, validated against the container's {@code geospatialConfig}:
 * each names a path ({@code /location/*} or {@code /location/?}) and GeoJSON types; a {@code Geometry} container's
 * spatial indexes need a {@code boundingBox} (planar coordinates have no natural bounds), a {@code Geography}
 * container's may not have one. Partita's spatial functions scan rather than use these indexes, so they are stored
 * and returned only.
 *
 * <p>The service returns every type for each spatial index, whatever types were given (the Python SDK's
 * {@code test_crud_container.py}: "All types are returned for spatial Indexes" on the live service), so a read
 * returns all four in the service's order.
 */
final class SpatialIndexes {
    /** The GeoJSON types a spatial index covers, in the order the service lists them. */
    static final List<String> TYPES = List.of("Point", "LineString", "Polygon", "MultiPolygon");
    private static final List<String> GEOSPATIAL_TYPES = List.of("Geography", "Geometry");
    private static final List<String> BOUNDS = List.of("xmin", "ymin", "xmax", "ymax");

    private SpatialIndexes() {
    }

    /** Validates the spatial indexes and rewrites each entry's types as the service returns them. */
    static void validate(ArrayNode spatial, JsonNode geospatialConfig) {
        boolean geometry = "Geometry".equals(geospatialType(geospatialConfig));
        for (JsonNode entry : spatial) {
            String path = entry.get("path").asText();
            IndexPath.parse(path);
            JsonNode types = entry.get("types");
            if (types == null || !types.isArray() || types.isEmpty()) {
                throw ServiceException.badRequest("The spatial index '" + path + "' must list its 'types': one or"
                        + " more of " + TYPES + ".");
            }
            for (JsonNode t : types) {
                if (IndexingPolicyShape.canonical(t.asText(""), TYPES) == null) {
                    throw ServiceException.badRequest("The spatial index '" + path + "' has the type '" + t.asText()
                            + "'; the types are " + TYPES + ".");
                }
            }
            TYPES.forEach(((ObjectNode) entry).putArray("types")::add);
            JsonNode box = entry.get("boundingBox");
            boolean hasBox = box != null && !box.isNull();
            if (geometry && !hasBox) {
                throw ServiceException.badRequest("The spatial index '" + path + "' needs a 'boundingBox': the"
                        + " container's geospatialConfig type is 'Geometry'.");
            }
            if (!geometry && hasBox) {
                throw ServiceException.badRequest("The spatial index '" + path + "' may not have a 'boundingBox':"
                        + " a 'boundingBox' applies only to the geospatialConfig type 'Geometry', and the"
                        + " container's is 'Geography'.");
            }
            if (hasBox) {
                boundingBox(path, box);
            }
        }
    }

    /** The container's geospatial type (Geography unless it says Geometry), in its canonical spelling. */
    private static String geospatialType(JsonNode config) {
        if (config == null || config.isNull()) {
            return "Geography";
        }
        String type = IndexingPolicyShape.canonical(config.path("type").asText(""), GEOSPATIAL_TYPES);
        if (!config.isObject() || type == null) {
            throw ServiceException.badRequest("The container's 'geospatialConfig' must be {\"type\": \"Geography\"}"
                    + " or {\"type\": \"Geometry\"}.");
        }
        return type;
    }

    private static void boundingBox(String path, JsonNode box) {
        for (String b : BOUNDS) {
            if (!box.path(b).isNumber()) {
                throw ServiceException.badRequest("The 'boundingBox' of the spatial index '" + path + "' needs the"
                        + " numbers " + BOUNDS + ".");
            }
        }
        if (box.get("xmin").doubleValue() >= box.get("xmax").doubleValue()
                || box.get("ymin").doubleValue() >= box.get("ymax").doubleValue()) {
            throw ServiceException.badRequest("The 'boundingBox' of the spatial index '" + path + "' must have"
                    + " 'xmin' below 'xmax' and 'ymin' below 'ymax'.");
        }
    }
}
