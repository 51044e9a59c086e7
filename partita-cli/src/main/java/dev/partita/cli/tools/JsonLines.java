package dev.partita.cli.tools;

import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
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
        JsonNode v = item;
        for (String segment : segments(path)) {
            v = v == null ? null : v.get(segment);
        }
        return v;
    }

    /** The item's partition key for these key paths ({@code /a/b}; a missing value is the "none" key). */
    static PartitionKey partitionKey(ObjectNode item, List<String> paths) {
        PartitionKeyBuilder b = new PartitionKeyBuilder();
        for (String path : paths) {
            JsonNode v = at(item, path);
            if (v == null) {
                b.addNoneValue();
            } else if (v.isNull()) {
                b.addNullValue();
            } else if (v.isTextual()) {
                b.add(v.textValue());
            } else if (v.isNumber()) {
                b.add(v.doubleValue());
            } else if (v.isBoolean()) {
                b.add(v.booleanValue());
            } else {
                b.addNoneValue();
            }
        }
        return b.build();
    }

    /** Path segments; quoted segments ({@code /"a b"}) lose their quotes. */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.substring(1).split("/")) {
            out.add(s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s);
        }
        return out;
    }

    static ObjectNode withoutSystemProperties(ObjectNode item) {
        item.remove(SYSTEM_PROPERTIES);
        return item;
    }
}
