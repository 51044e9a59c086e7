package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.index.ComputedProperties;
import dev.partita.core.index.ContainerSearch;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validates a container body and fills in the defaults the service adds (indexing policy, conflict resolution,
 * partition key version), so that what the catalog stores is what a read returns.
 */
public record ContainerProperties(ObjectNode body, PartitionKeyDefinition partitionKey, Integer defaultTtl,
        List<UniqueKey> uniqueKeys, ComputedProperties computed) {

    private static final Set<String> SYSTEM = Set.of("_rid", "_ts", "_self", "_etag", "_docs", "_sprocs",
            "_triggers", "_udfs", "_conflicts");

    public static ContainerProperties parse(ObjectNode input, Limits limits) {
        ObjectNode body = input.deepCopy();
        SYSTEM.forEach(body::remove);
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The container body must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), "container", limits.maxResourceIdChars());
        JsonNode pk = body.get("partitionKey");
        if (pk == null || pk.isNull()) {
            // the service's words (API 2018-12-31 and later)
            throw ServiceException.badRequest("A Partition key definition is not specified in the request. Add e.g."
                    + " \"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"} to the container body.");
        }
        PartitionKeyDefinition definition = PartitionKeyDefinition.fromJson(pk, limits);
        body.set("partitionKey", definition.toJson());
        body.set("indexingPolicy", indexingPolicy(body.get("indexingPolicy")));
        ContainerSearch.validate(body);
        Integer ttl = defaultTtl(body.get("defaultTtl"), limits);
        if (ttl == null) {
            body.remove("defaultTtl");
        }
        List<UniqueKey> uniqueKeys = uniqueKeys(body);
        ComputedProperties computed = ComputedProperties.parse(body.get("computedProperties"),
                limits.maxComputedProperties());
        if (!body.has("conflictResolutionPolicy") || body.get("conflictResolutionPolicy").isNull()) {
            ObjectNode crp = body.putObject("conflictResolutionPolicy");
            crp.put("mode", "LastWriterWins");
            crp.put("conflictResolutionPath", "/_ts");
            crp.put("conflictResolutionProcedure", "");
        }
        if (!body.has("geospatialConfig")) {
            body.putObject("geospatialConfig").put("type", "Geography");
        }
        return new ContainerProperties(body, definition, ttl, uniqueKeys, computed);
    }

    private static JsonNode indexingPolicy(JsonNode given) {
        ObjectNode p = given instanceof ObjectNode o ? o.deepCopy() : Json.object();
        if (given != null && !given.isNull() && !given.isObject()) {
            throw ServiceException.badRequest("The container's 'indexingPolicy' must be a JSON object.");
        }
        String mode = p.path("indexingMode").asText("consistent").toLowerCase(Locale.ROOT);
        if (!Set.of("consistent", "lazy", "none").contains(mode)) {
            throw ServiceException.badRequest("The indexing mode must be 'consistent', 'lazy' or 'none'.");
        }
        p.put("indexingMode", mode);
        boolean automatic = p.path("automatic").asBoolean(true);
        if ("none".equals(mode) && automatic && p.has("automatic")) {
            throw ServiceException.badRequest("An indexing policy with mode 'none' must set 'automatic' to false.");
        }
        p.put("automatic", !"none".equals(mode) && automatic);
        if (!p.has("excludedPaths")) {
            p.putArray("excludedPaths");
        }
        // the root defaults to included unless the policy excludes it ("index nothing but what I list")
        if ((!p.has("includedPaths") || p.get("includedPaths").isEmpty())
                && !containsPath(p.get("excludedPaths"), "/*")) {
            p.putArray("includedPaths").addObject().put("path", "/*");
        }
        if (!p.has("includedPaths")) {
            p.putArray("includedPaths");
        }
        for (String list : List.of("includedPaths", "excludedPaths")) {
            JsonNode paths = p.get(list);
            if (!paths.isArray()) {
                throw ServiceException.badRequest("The indexing policy's '" + list + "' must be an array.");
            }
            for (JsonNode entry : paths) {
                String path = entry.path("path").asText("");
                if (!path.startsWith("/") || !(path.endsWith("/?") || path.endsWith("/*") || path.equals("/*"))) {
                    throw ServiceException.badRequest("The indexing path at '" + list + "' must start with '/' and"
                            + " end with '/?' or '/*'.");
                }
            }
        }
        if ("none".equals(mode)) {
            // the service keeps no paths for an unindexed container
            p.putArray("includedPaths");
            p.putArray("excludedPaths");
        } else if (!containsPath(p.get("excludedPaths"), "/\"_etag\"/?")) {
            ((ArrayNode) p.get("excludedPaths")).addObject().put("path", "/\"_etag\"/?");
        }
        return p;
    }

    private static boolean containsPath(JsonNode paths, String path) {
        for (JsonNode e : paths) {
            if (path.equals(e.path("path").asText())) {
                return true;
            }
        }
        return false;
    }

    private static Integer defaultTtl(JsonNode ttl, Limits limits) {
        if (ttl == null || ttl.isNull()) {
            return null;
        }
        if (!ttl.canConvertToInt() || !ttl.isIntegralNumber()) {
            throw ServiceException.badRequest("The container's 'defaultTtl' must be an integer: -1, or seconds > 0.");
        }
        int v = ttl.intValue();
        if (v == 0 || v < -1 || v > limits.maxTtlSeconds()) {
            throw ServiceException.badRequest("The container's 'defaultTtl' must be -1 or between 1 and "
                    + limits.maxTtlSeconds() + " seconds.");
        }
        return v;
    }

    private static List<UniqueKey> uniqueKeys(ObjectNode body) {
        JsonNode policy = body.get("uniqueKeyPolicy");
        if (policy == null || policy.isNull()) {
            body.putObject("uniqueKeyPolicy").putArray("uniqueKeys");
            return List.of();
        }
        JsonNode keys = policy.path("uniqueKeys");
        if (keys.isMissingNode()) {
            ((ObjectNode) policy).putArray("uniqueKeys");
            return List.of();
        }
        if (!keys.isArray()) {
            throw ServiceException.badRequest("'uniqueKeyPolicy.uniqueKeys' must be an array.");
        }
        List<UniqueKey> out = new ArrayList<>();
        for (JsonNode k : keys) {
            List<String> paths = new ArrayList<>();
            for (JsonNode path : k.path("paths")) {
                if (!path.isTextual() || !path.asText().startsWith("/")) {
                    throw ServiceException.badRequest("Every unique key path must be a string starting with '/'.");
                }
                paths.add(path.asText());
            }
            if (paths.isEmpty()) {
                throw ServiceException.badRequest("Every unique key must name at least one path.");
            }
            out.add(new UniqueKey(paths));
        }
        return out;
    }
}
