package dev.partita.cli.tools;

import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** One JSON Lines item: parsing with a reason for a bad line, and its partition key under the container's paths. */
final class JsonLines {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final List<String> SYSTEM_PROPERTIES = List.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private JsonLines() {
    }

    /** A parsed line: the item, or why it cannot be imported (never quoting the line's values). */
    record Line(long number, ObjectNode item, String problem) {
        boolean isBad() {
            return problem != null;
        }
    }

    static Line parse(long number, String text, List<String> keyPaths) {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return new Line(number, null, "not valid JSON (column "
                    + (e.getLocation() == null ? "?" : e.getLocation().getColumnNr()) + ")");
        }
        if (!(node instanceof ObjectNode item)) {
            return new Line(number, null, "not a JSON object");
        }
        JsonNode id = item.get("id");
        if (id == null || !id.isTextual()) {
            return new Line(number, null, "no string \"id\" property");
        }
        String value = id.textValue();
        if (value.isEmpty() || value.length() > 1023 || value.chars().anyMatch(c -> "/\\?#".indexOf(c) >= 0)) {
            return new Line(number, null, "the id is empty, longer than 1,023 characters or contains / \\ ? #");
        }
        if (keyPaths.size() > 1) {
            for (int i = 0; i < keyPaths.size(); i++) {
                JsonNode v = at(item, keyPaths.get(i));
                if (v == null || v.isContainerNode()) {
                    return new Line(number, null, "no value at partition key path " + keyPaths.get(i)
                            + " (a hierarchical key needs a string, number, boolean or null at every level)");
                }
            }
        }
        return new Line(number, item, null);
    }

    private static JsonNode at(JsonNode item, String path) {
        return PartitionKeys.at(item, path);
    }

    /** The item's partition key for these key paths ({@code /a/b}; a missing value is the "none" key). */
    static PartitionKey partitionKey(ObjectNode item, List<String> paths) {
        return PartitionKeys.of(item, paths);
    }

    /** Path segments; quoted segments ({@code /"a b"}) lose their quotes. */
    static List<String> segments(String path) {
        return PartitionKeys.segments(path);
    }

    static ObjectNode withoutSystemProperties(ObjectNode item) {
        item.remove(SYSTEM_PROPERTIES);
        return item;
    }
}
