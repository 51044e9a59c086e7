package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue;
import java.util.Locale;

/**
 * What a permission body grants, checked: the mode ({@code all} or {@code read}), the resource link (a container of the
 * user's database, or a resource in one; slashes trimmed) and the optional logical partition.
 */
record PermissionGrant(String mode, String resource, ArrayNode partitionKey) {

    static PermissionGrant parse(ObjectNode body, DatabaseInfo db) {
        String mode = body.path("permissionMode").asText("").toLowerCase(Locale.ROOT);
        if (!mode.equals("all") && !mode.equals("read")) {
            throw ServiceException.badRequest("The permission's 'permissionMode' must be 'All' or 'Read'.");
        }
        JsonNode resource = body.get("resource");
        if (resource == null || !resource.isTextual() || resource.asText().isBlank()) {
            throw ServiceException.badRequest(
                    "The permission needs a 'resource' link, e.g. dbs/<db>/colls/<container>.");
        }
        String link = trimSlashes(resource.asText());
        String[] segments = link.split("/");
        if (segments.length < 4 || segments.length % 2 != 0 || !"dbs".equals(segments[0])
                || !"colls".equals(segments[2])) {
            throw ServiceException.badRequest("The permission's 'resource' must link a container or a resource in one,"
                    + " e.g. dbs/<db>/colls/<container> or dbs/<db>/colls/<container>/docs/<id>.");
        }
        if (!segments[1].equals(db.id()) && !segments[1].equals(db.rid())) {
            throw ServiceException.badRequest("The permission's 'resource' must lie in the user's database.");
        }
        JsonNode pk = body.get("resourcePartitionKey");
        ArrayNode partitionKey = null;
        if (pk != null && !pk.isNull()) {
            if (!pk.isArray()) {
                throw ServiceException.badRequest("The permission's 'resourcePartitionKey' must be a JSON array.");
            }
            PartitionKeyValue.fromJson(pk);
            partitionKey = (ArrayNode) pk;
        }
        return new PermissionGrant(mode, link, partitionKey);
    }

    private static String trimSlashes(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && s.charAt(from) == '/') {
            from++;
        }
        while (to > from && s.charAt(to - 1) == '/') {
            to--;
        }
        return s.substring(from, to);
    }
}
