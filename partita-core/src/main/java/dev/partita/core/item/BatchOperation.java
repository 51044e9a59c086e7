package dev.partita.core.item;

import dev.partita.core.request.Conditions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One operation of a transactional batch or bulk request, as the SDK sends it (feeds-batch.md §4–5).
 *
 * @param partitionKey  the operation's own key (a bulk operation's route; in a batch, null or the request's key)
 * @param resourceBytes the bytes {@code resourceBody} was parsed from when it is an object ({@link BatchBody}), else
 *                      null
 */
public record BatchOperation(Type type, String id, JsonNode resourceBody, Conditions conditions,
        PartitionKeyValue partitionKey, boolean minimalReturn, byte[] resourceBytes) {

    public enum Type { CREATE, UPSERT, REPLACE, DELETE, READ, PATCH }

    static List<BatchOperation> parseAll(JsonNode body, boolean bulk) {
        if (!body.isArray()) {
            throw ServiceException.badRequest("A batch body must be a JSON array of operations.");
        }
        if (body.isEmpty()) {
            throw ServiceException.badRequest("A batch must carry at least one operation.");
        }
        List<BatchOperation> ops = new ArrayList<>(body.size());
        for (JsonNode op : body) {
            ops.add(parse(op, bulk));
        }
        return ops;
    }

    private static BatchOperation parse(JsonNode op, boolean bulk) {
        if (!op.isObject()) {
            throw ServiceException.badRequest("Every batch operation must be a JSON object.");
        }
        Type type = switch (op.path("operationType").asText("").toLowerCase(Locale.ROOT)) {
            case "create" -> Type.CREATE;
            case "upsert" -> Type.UPSERT;
            case "replace" -> Type.REPLACE;
            case "delete" -> Type.DELETE;
            case "read" -> Type.READ;
            case "patch" -> Type.PATCH;
            default -> throw ServiceException.badRequest("Unknown batch 'operationType'; use Create, Upsert, Replace,"
                    + " Delete, Read or Patch.");
        };
        String id = op.path("id").isTextual() ? op.get("id").asText() : null;
        JsonNode resource = op.get("resourceBody");
        if (id == null && resource != null && resource.path("id").isTextual()) {
            id = resource.get("id").asText();
        }
        boolean needsBody = type == Type.CREATE || type == Type.UPSERT || type == Type.REPLACE || type == Type.PATCH;
        if (needsBody && (resource == null || !resource.isObject())) {
            throw ServiceException.badRequest("A " + type.name().toLowerCase(Locale.ROOT) + " operation needs a"
                    + " 'resourceBody' object.");
        }
        if (!needsBody && id == null) {
            throw ServiceException.badRequest("A " + type.name().toLowerCase(Locale.ROOT) + " operation needs an 'id'.");
        }
        if ((type == Type.REPLACE || type == Type.PATCH) && id == null) {
            throw ServiceException.badRequest("A " + type.name().toLowerCase(Locale.ROOT) + " operation needs an 'id'.");
        }
        Conditions conditions = new Conditions(text(op, "ifMatch"), text(op, "ifNoneMatch"));
        PartitionKeyValue pk = null;
        JsonNode pkText = op.get("partitionKey");
        if (bulk && (pkText == null || !pkText.isTextual())) {
            throw ServiceException.badRequest("Every bulk operation needs a 'partitionKey' (a JSON array as text).");
        }
        if (pkText != null && pkText.isTextual()) {
            // a batch operation may name its key too (the JavaScript SDK sends it): it must be the request's
            pk = PartitionKeyValue.fromHeader(pkText.asText());
        }
        return new BatchOperation(type, id, resource, conditions, pk, op.path("minimalReturnPreference").asBoolean(),
                null);
    }

    /** This operation with the bytes its {@code resourceBody} object was parsed from. */
    BatchOperation withResourceBytes(byte[] bytes) {
        return new BatchOperation(type, id, resourceBody, conditions, partitionKey, minimalReturn, bytes);
    }

    private static String text(JsonNode op, String field) {
        JsonNode v = op.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
