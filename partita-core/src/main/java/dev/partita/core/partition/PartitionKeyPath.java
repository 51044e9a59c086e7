package dev.partita.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Partition key paths ({@code /a/b}, {@code /"odd name"/c}) split into property names the way the SDK's
 * {@code PathParser} does, and the lookup of a path in an item.
 */
final class PartitionKeyPath {

    private PartitionKeyPath() {
    }

    private static final int CACHE_LIMIT = 10_000;
    private static final ConcurrentHashMap<String, String[]> CACHE = new ConcurrentHashMap<>();

    /** The property names of a path, or {@code null} if it is not a valid path. */
    static String[] parts(String path) {
        String[] cached = CACHE.get(path);
        if (cached != null) {
            return cached;
        }
        String[] parsed = parse(path);
        if (parsed != null && CACHE.size() < CACHE_LIMIT) {
            CACHE.put(path, parsed);
        }
        return parsed;
    }

    /**
     * Follows the SDK: segments are separated by '/', a segment may be quoted with " or ' (a backslash before the
     * quote does not end it; the text between the quotes is taken as is), unquoted segments are trimmed. A path must
     * start with '/', have at least one segment, and no segment may be empty.
     */
    private static String[] parse(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        List<String> tokens = new ArrayList<>(2);
        int i = 0;
        while (i < path.length()) {
            if (path.charAt(i) != '/') {
                return null;
            }
            if (++i == path.length()) {
                break;
            }
            char c = path.charAt(i);
            String token;
            if (c == '"' || c == '\'') {
                int start = ++i;
                int end = start;
                while (true) {
                    end = path.indexOf(c, end);
                    if (end == -1) {
                        return null;
                    }
                    if (path.charAt(end - 1) != '\\') {
                        break;
                    }
                    end++;
                }
                token = path.substring(start, end);
                i = end + 1;
            } else {
                int end = path.indexOf('/', i);
                if (end == -1) {
                    end = path.length();
                }
                token = path.substring(i, end).trim();
                i = end;
            }
            if (token.isEmpty()) {
                return null;
            }
            tokens.add(token);
        }
        return tokens.isEmpty() ? null : tokens.toArray(new String[0]);
    }

    /**
     * The value at a path, or {@code null} if it is missing (including when a step on the way is not an object). An
     * explicit JSON null is returned as a NullNode.
     */
    static JsonNode lookup(JsonNode item, String[] parts) {
        JsonNode node = item;
        for (String part : parts) {
            if (node == null || !node.isObject()) {
                return null;
            }
            node = node.get(part);
        }
        return node;
    }
}
