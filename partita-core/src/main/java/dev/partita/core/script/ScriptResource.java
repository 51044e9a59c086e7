package dev.partita.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.ResourceNames;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;


/**
 * One stored procedure, trigger or user-defined function as the container keeps it. Triggers also carry their type
 * ({@code Pre}, {@code Post}) and operation ({@code All}, {@code Create}, {@code Update}, {@code Replace},
 * {@code Upsert}, {@code Delete}), stored in the service's spelling whatever case the client sent.
 */
public record ScriptResource(ScriptKind kind, String id, String body, String triggerType, String triggerOperation,
        String rid, long ts, String etag) {

    static final String[] TRIGGER_TYPES = {"Pre", "Post"};
    static final String[] TRIGGER_OPERATIONS = {"All", "Create", "Update", "Replace", "Upsert", "Delete"};

    /** The fields a client sent, validated; the system properties are the catalog's to assign. */
    record Definition(String id, String body, String triggerType, String triggerOperation) {
    }

    static Definition parse(ScriptKind kind, ObjectNode json, Limits limits) {
        JsonNode id = json.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The " + kind.noun() + " must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), kind.noun(), limits.maxResourceIdChars());
        JsonNode body = json.get("body");
        if (body == null || !body.isTextual() || body.asText().isBlank()) {
            throw ServiceException.badRequest("The " + kind.noun() + " must have a 'body': the JavaScript function"
                    + " as a string.");
        }
        if (kind != ScriptKind.TRIGGER) {
            return new Definition(id.asText(), body.asText(), null, null);
        }
        return new Definition(id.asText(), body.asText(), canonical(json.get("triggerType"), TRIGGER_TYPES,
                "triggerType"), canonical(json.get("triggerOperation"), TRIGGER_OPERATIONS, "triggerOperation"));
    }

    private static String canonical(JsonNode value, String[] allowed, String field) {
        if (value != null && value.isTextual()) {
            for (String a : allowed) {
                if (a.equalsIgnoreCase(value.asText().trim())) {
                    return a;
                }
            }
        }
        throw ServiceException.badRequest("The trigger's '" + field + "' must be one of " + String.join(", ", allowed)
                + ".");
    }

    /** Whether this trigger (of {@link #triggerOperation()}) may run for a request doing {@code operation}. */
    public boolean triggersOn(String operation) {
        String op = triggerOperation;
        return op.equals("All") || op.equals(operation)
                || op.equals("Update") && (operation.equals("Replace") || operation.equals("Upsert"))
                || operation.equals("Upsert") && (op.equals("Create") || op.equals("Replace"));
    }

    /** The resource as the service returns it. */
    public ObjectNode toJson(ContainerInfo c) {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("body", body);
        if (kind == ScriptKind.TRIGGER) {
            o.put("triggerType", triggerType);
            o.put("triggerOperation", triggerOperation);
        }
        o.put("_rid", rid);
        o.put("_self", c.selfLink() + kind.path() + "/" + rid + "/");
        o.put("_etag", etag);
        o.put("_ts", ts);
        return o;
    }

    byte[] encode() {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("body", body);
        o.put("triggerType", triggerType);
        o.put("triggerOperation", triggerOperation);
        o.put("rid", rid);
        o.put("ts", ts);
        o.put("etag", etag);
        return Json.bytes(o);
    }

    static ScriptResource decode(ScriptKind kind, byte[] stored) {
        JsonNode o = Json.parse(stored, kind.noun() + " record");
        return new ScriptResource(kind, o.get("id").asText(), o.get("body").asText(), text(o, "triggerType"),
                text(o, "triggerOperation"), o.get("rid").asText(), o.get("ts").asLong(), o.get("etag").asText());
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
