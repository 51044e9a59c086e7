package dev.partita.cli.tools;

import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** An item's partition key for given key paths, as the SDK needs it; shared by the tools that write items. */
public final class PartitionKeys {
    private PartitionKeys() {
    }

    /** The value at a key path ({@code /a/b}, quoted segments allowed), or null when missing. */
    public static JsonNode at(JsonNode item, String path) {
        JsonNode v = item;
        for (String segment : segments(path)) {
            v = v == null ? null : v.get(segment);
        }
        return v;
    }

    /** The item's key under these paths; a missing (or object/array) value is the "none" key. */
    public static PartitionKey of(JsonNode item, List<String> paths) {
        PartitionKeyBuilder b = new PartitionKeyBuilder();
        for (String path : paths) {
            JsonNode v = at(item, path);
            if (v == null || v.isContainerNode()) {
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
    public static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.substring(1).split("/")) {
            out.add(s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s);
        }
        return out;
    }
}
