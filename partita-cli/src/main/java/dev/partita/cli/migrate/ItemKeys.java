package dev.partita.cli.migrate;

import dev.partita.cli.tools.PartitionKeys;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the migration computes from an item's content alone, so both containers agree without asking the server: its
 * partition key under given paths, its identity (id plus source key values, unique in the source) and a checksum of
 * its content without the properties the service adds.
 */
final class ItemKeys {
    /** Set by the service on every item (and {@code _lsn} by the change feed); never part of the content. */
    static final Set<String> SYSTEM_PROPERTIES = Set.of("_rid", "_self", "_etag", "_attachments", "_ts", "_lsn");

    private ItemKeys() {
    }

    /** The value at a key path ({@code /a/b}, quoted segments allowed), or null when missing. */
    static JsonNode at(JsonNode item, String path) {
        return PartitionKeys.at(item, path);
    }

    /** The item's partition key under these paths; a missing (or object/array) value is the "none" key. */
    static PartitionKey partitionKey(JsonNode item, List<String> paths) {
        return PartitionKeys.of(item, paths);
    }

    /**
     * The item's identity: id plus the values at the source's key paths. Two source items never share it, and the
     * target copy of an item has the same one, whatever the target's key.
     */
    static String identity(JsonNode item, List<String> sourcePaths) {
        ArrayNode values = JsonNodeFactory.instance.arrayNode();
        for (String path : sourcePaths) {
            JsonNode v = at(item, path);
            values.add(v == null ? JsonNodeFactory.instance.textNode("\u0000none") : v);
        }
        JsonNode id = item.get("id");
        return (id == null ? "" : id.asText()) + "\u0000" + values;
    }

    /** The id part of an identity, the only part a report may show. */
    static String idOf(String identity) {
        return identity.substring(0, identity.indexOf('\u0000'));
    }

    /** A hex SHA-256 of the item's content with keys sorted and system properties left out. */
    static String checksum(JsonNode item) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(canonical(item, true).toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same JSON with object keys in sorted order (so property order does not change the checksum). */
    private static JsonNode canonical(JsonNode node, boolean top) {
        if (node instanceof ObjectNode o) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            o.properties().forEach(e -> {
                if (!(top && SYSTEM_PROPERTIES.contains(e.getKey()))) {
                    sorted.put(e.getKey(), canonical(e.getValue(), false));
                }
            });
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            a.forEach(e -> out.add(canonical(e, false)));
            return out;
        }
        return node;
    }

    /** The item as the target gets it: the content, without the source's system properties. */
    static ObjectNode content(ObjectNode item) {
        ObjectNode copy = item.deepCopy();
        copy.remove(SYSTEM_PROPERTIES);
        return copy;
    }

    /** Path segments; quoted segments ({@code /"a b"}) lose their quotes. */
    static List<String> segments(String path) {
        return PartitionKeys.segments(path);
    }
}
