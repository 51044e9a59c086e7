package dev.partita.core.account;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;

/** A database as the catalog keeps it. Immutable. */
public record DatabaseInfo(String id, int databaseId, String rid, long ts, String etag, Throughput throughput) {

    public String selfLink() {
        return "dbs/" + rid + "/";
    }

    /** The resource as the service returns it. */
    public ObjectNode toJson() {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("_rid", rid);
        o.put("_self", selfLink());
        o.put("_etag", etag);
        o.put("_colls", "colls/");
        o.put("_users", "users/");
        o.put("_ts", ts);
        return o;
    }
}
