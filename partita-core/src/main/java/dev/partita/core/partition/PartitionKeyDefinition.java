package dev.partita.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A container's {@code partitionKey} (protocol.md §3.2): its paths, kind, hash version and the legacy system-key flag.
 *
 * <p>The version is always explicit here (1 or 2) because the SDK hashes with whatever version a container read
 * returns. A definition without a version is V1, as the service makes it: the Java and JavaScript SDKs send none
 * unless asked, and the Java SDK's own tests (CosmosContainerTest's "HashV1" feed ranges) expect V1 EPKs for such
 * containers. MultiHash is always V2.
 *
 * @param paths     the paths, e.g. {@code ["/tenantId", "/userId"]}; empty only for a legacy container without a key
 * @param kind      Hash, MultiHash (or the legacy Range)
 * @param version   the hash version, 1 or 2 (MultiHash is forced to 2)
 * @param systemKey true for the legacy system-key containers, whose "no key" value is {@code []}
 */
public record PartitionKeyDefinition(List<String> paths, PartitionKind kind, int version, boolean systemKey) {

    public PartitionKeyDefinition {
        Objects.requireNonNull(paths, "paths");
        Objects.requireNonNull(kind, "kind");
        paths = List.copyOf(paths);
        if (kind == PartitionKind.MULTI_HASH) {
            version = 2;
        }
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("version must be 1 or 2");
        }
    }

    /** A Hash V2 definition with one path (what the portal and the .NET SDK create). */
    public static PartitionKeyDefinition hash(String path) {
        return new PartitionKeyDefinition(List.of(path), PartitionKind.HASH, 2, false);
    }

    /** A Hash V1 definition with one path (legacy containers; keys above 100 bytes collide). */
    public static PartitionKeyDefinition hashV1(String path) {
        return new PartitionKeyDefinition(List.of(path), PartitionKind.HASH, 1, false);
    }

    /** The path of the service's system partition key, the one a container created without a key gets. */
    public static final String SYSTEM_KEY_PATH = "/_partitionKey";

    /**
     * The definition of a non-partitioned (legacy, "fixed") container as the service shows it to the current API:
     * {@code {"paths":["/_partitionKey"],"kind":"Hash","systemKey":true}}, hash V1 (such containers predate V2). An item
     * without a {@code _partitionKey} property has the key {@code []}; one with the property is in that logical
     * partition.
     */
    public static PartitionKeyDefinition nonPartitioned() {
        return new PartitionKeyDefinition(List.of(SYSTEM_KEY_PATH), PartitionKind.HASH, 1, true);
    }

    /** A hierarchical (MultiHash, V2) definition. */
    public static PartitionKeyDefinition multiHash(String... paths) {
        return new PartitionKeyDefinition(List.of(paths), PartitionKind.MULTI_HASH, 2, false);
    }

    /**
     * Reads and validates a {@code partitionKey} object from a container body. Paths must be non-empty (unless
     * {@code systemKey}), each a valid path starting with '/'; Hash and Range take exactly one path, MultiHash 1 to
     * {@link Limits#maxHierarchicalKeyLevels()} distinct paths. {@code version} may be a number or the strings
     * {@code "1"}, {@code "2"}, {@code "V1"}, {@code "V2"}; it defaults to 2. A missing kind is Hash.
     *
     * @throws ServiceException 400 naming what is wrong and how to fix it
     */
    public static PartitionKeyDefinition fromJson(JsonNode node, Limits limits) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw bad("The container must have a 'partitionKey' definition, e.g. {\"paths\":[\"/pk\"],\"kind\":\"Hash\"}.");
        }
        if (!node.isObject()) {
            throw bad("The container's 'partitionKey' must be a JSON object, e.g. {\"paths\":[\"/pk\"],\"kind\":\"Hash\"}.");
        }

        boolean systemKey = false;
        JsonNode sk = node.get("systemKey");
        if (sk != null && !sk.isNull()) {
            if (!sk.isBoolean()) {
                throw bad("The partition key's 'systemKey' must be true or false.");
            }
            systemKey = sk.booleanValue();
        }

        PartitionKind kind = PartitionKind.HASH;
        JsonNode k = node.get("kind");
        if (k != null && !k.isNull()) {
            if (!k.isTextual()) {
                throw bad("The partition key's 'kind' must be a string: \"Hash\" or \"MultiHash\".");
            }
            kind = PartitionKind.fromWire(k.textValue());
        }

        List<String> paths = new ArrayList<>();
        JsonNode p = node.get("paths");
        if (p != null && !p.isNull()) {
            if (!p.isArray()) {
                throw bad("The partition key's 'paths' must be an array of paths, e.g. [\"/pk\"].");
            }
            for (JsonNode path : p) {
                if (!path.isTextual()) {
                    throw bad("Each partition key path must be a string such as \"/pk\".");
                }
                paths.add(path.textValue());
            }
        }
        if (paths.isEmpty() && !systemKey) {
            throw bad("The partition key must have at least one path in 'paths', e.g. [\"/pk\"].");
        }
        for (String path : paths) {
            // the service's sentence (the JavaScript SDK's container tests match its start), then what to write
            if (path.isEmpty() || path.charAt(0) != '/') {
                throw bad("The partition key component definition path '" + path + "' could not be accepted, failed"
                        + " near position '0'. A partition key path must start with '/', e.g. \"/pk\" or"
                        + " \"/address/zipCode\".");
            }
            if (PartitionKeyPath.parts(path) == null) {
                throw bad("The partition key component definition path '" + path + "' could not be accepted. A"
                        + " partition key path must name a property after each '/', e.g. \"/pk\" or"
                        + " \"/address/zipCode\"; quoted names must be closed.");
            }
        }
        switch (kind) {
            case HASH, RANGE -> {
                if (paths.size() > 1) {
                    throw bad("A partition key of kind " + kind.wireName() + " takes exactly one path; use kind "
                            + "\"MultiHash\" for hierarchical partition keys.");
                }
            }
            case MULTI_HASH -> {
                if (paths.size() > limits.maxHierarchicalKeyLevels()) {
                    // the service's words (the Java SDK's CosmosMultiHashTest.invalidPartitionKeys)
                    throw bad("Too many partition key paths (" + paths.size() + ") specified. A maximum of "
                            + limits.maxHierarchicalKeyLevels() + " is allowed.");
                }
                if (paths.isEmpty()) {
                    throw bad("A hierarchical (MultiHash) partition key takes 1 to " + limits.maxHierarchicalKeyLevels()
                            + " paths.");
                }
                if (new HashSet<>(paths).size() != paths.size()) {
                    throw bad("The paths of a hierarchical partition key must be different from each other.");
                }
            }
        }

        int version = 1;
        JsonNode v = node.get("version");
        if (v != null && !v.isNull()) {
            version = parseVersion(v);
        }
        return new PartitionKeyDefinition(paths, kind, version, systemKey);
    }

    private static int parseVersion(JsonNode v) {
        if (v.isIntegralNumber() && v.canConvertToInt()) {
            int n = v.intValue();
            if (n == 1 || n == 2) {
                return n;
            }
        } else if (v.isNumber()) {
            double d = v.doubleValue();
            if (d == 1 || d == 2) {
                return (int) d;
            }
        } else if (v.isTextual()) {
            String s = v.textValue().trim().toUpperCase(Locale.ROOT);
            switch (s) {
                case "1", "V1" -> {
                    return 1;
                }
                case "2", "V2" -> {
                    return 2;
                }
                default -> {
                }
            }
        }
        throw bad("The partition key 'version' must be 1 or 2 (2 hashes keys up to 2 KB; 1, the default, hashes"
                + " their first 101 bytes).");
    }

    private static ServiceException bad(String message) {
        return ServiceException.badRequest(message);
    }

    /**
     * The wire form: {@code {"paths":[...],"kind":"Hash","version":2}}, plus {@code "systemKey":true} only when set.
     * Property names are lower-case, as the SDK requires.
     */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        ArrayNode a = o.putArray("paths");
        paths.forEach(a::add);
        o.put("kind", kind.wireName());
        o.put("version", version);
        if (systemKey) {
            o.put("systemKey", true);
        }
        return o;
    }

    /** The number of paths (levels of a hierarchical key). */
    public int levels() {
        return paths.size();
    }

    /** Property names of each path, parsed once. */
    String[] pathParts(int i) {
        String[] parts = PartitionKeyPath.parts(paths.get(i));
        if (parts == null) {
            throw new IllegalStateException("invalid partition key path in definition");
        }
        return parts;
    }
}
