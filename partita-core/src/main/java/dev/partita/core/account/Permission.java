package dev.partita.core.account;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.partition.PartitionKeyValue;

/**
 * A permission of a user ({@link Users}); its rid, which its resource tokens name, stays when it or its user is
 * renamed.
 *
 * @param mode         {@code all} or {@code read}
 * @param resource     the resource link as given, e.g. {@code dbs/db1/colls/c1} or {@code dbs/db1/colls/c1/docs/a}
 * @param partitionKey the logical partition the permission is confined to, or null for the whole resource
 */
public record Permission(String databaseRid, String userId, String userRid, String id, String rid, String mode,
        String resource, ArrayNode partitionKey, long ts, String etag) {

    public boolean readOnly() {
        return "read".equals(mode);
    }

    public PartitionKeyValue partitionKeyValue() {
        return partitionKey == null ? null : PartitionKeyValue.fromJson(partitionKey);
    }

    public String selfLink() {
        return "dbs/" + databaseRid + "/users/" + userRid + "/permissions/" + rid + "/";
    }

    /** The resource as the service returns it; {@code token} is the resource token to hand out (or null). */
    public ObjectNode toJson(String token) {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("permissionMode", mode);
        o.put("resource", resource);
        if (partitionKey != null) {
            o.set("resourcePartitionKey", partitionKey.deepCopy());
        }
        o.put("_rid", rid);
        o.put("_self", selfLink());
        o.put("_etag", etag);
        if (token != null) {
            o.put("_token", token);
        }
        o.put("_ts", ts);
        return o;
    }
}
