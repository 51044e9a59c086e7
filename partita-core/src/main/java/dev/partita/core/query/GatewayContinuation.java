package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.partition.EffectivePartitionKey;

/**
 * The continuation token of a query the gateway runs over the whole container itself (no partition key, no range):
 * the service wraps each backend token with the range it resumes in, {@code [{"token":"…","range":{"min":"",
 * "max":"FF"}}]}, and clients parse it as JSON (the JS SDK's {@code continuationTokenQueryControl.spec.ts}). Partita
 * runs such a query as one walk over the container, so its one entry spans every range.
 */
public final class GatewayContinuation {
    private GatewayContinuation() {
    }

    /** The wrapped form of the engine's token (null stays null: the query is drained). */
    public static String wrap(String token) {
        if (token == null) {
            return null;
        }
        ArrayNode list = Json.NODES.arrayNode();
        ObjectNode entry = list.addObject();
        entry.put("token", token);
        entry.putObject("range").put("min", EffectivePartitionKey.MIN).put("max", EffectivePartitionKey.MAX);
        return list.toString();
    }

    /** The engine's token inside a wrapped one; any other token is passed on as it is (the engine checks it). */
    public static String unwrap(String token) {
        if (token == null || !token.startsWith("[")) {
            return token;
        }
        JsonNode list;
        try {
            list = Json.parse(token, "continuation token");
        } catch (RuntimeException e) {
            throw Continuation.malformed();
        }
        JsonNode inner = list.path(0).path("token");
        if (list.size() != 1 || !inner.isTextual()) {
            throw Continuation.malformed();
        }
        return inner.asText();
    }
}
