package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.index.ComputedProperties;
import dev.partita.core.index.ContainerSearch;
import dev.partita.core.index.IndexingPolicyShape;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyDefinition;
import java.util.ArrayList;
import java.util.List;
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
        body.set("indexingPolicy", IndexingPolicyShape.of(body.get("indexingPolicy"), body.get("geospatialConfig")));
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
        if (!policy.isObject()) {
            throw ServiceException.badRequest("'uniqueKeyPolicy' must be an object.");
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
