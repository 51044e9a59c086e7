package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Approximate serialized size of result rows, for the cost model, without serializing them. */
final class Rows {
    private Rows() {
    }

    static long bytes(List<JsonNode> rows) {
        long total = 0;
        for (JsonNode row : rows) {
            total += bytes(row) + 1;
        }
        return total;
    }

    static long bytes(JsonNode node) {
        if (node == null) {
            return 0;
        }
        return switch (node.getNodeType()) {
            case OBJECT -> {
                long n = 2;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    n += e.getKey().length() + 4 + bytes(e.getValue());
                }
                yield n;
            }
            case ARRAY -> {
                long n = 2;
                for (JsonNode element : node) {
                    n += bytes(element) + 1;
                }
                yield n;
            }
            case STRING -> node.textValue().length() + 2;
            case NUMBER -> node.asText().length();
            case BOOLEAN -> node.booleanValue() ? 4 : 5;
            default -> 4;
        };
    }
}
