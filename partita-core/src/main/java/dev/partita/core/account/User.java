package dev.partita.core.account;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;

/** A user of a database ({@link Users}); its rid stays when it is renamed. */
public record User(String databaseRid, String id, String rid, long ts, String etag) {
    public String selfLink() {
        return "dbs/" + databaseRid + "/users/" + rid + "/";
    }

    public ObjectNode toJson() {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("_rid", rid);
        o.put("_self", selfLink());
        o.put("_etag", etag);
        o.put("_permissions", "permissions/");
        o.put("_ts", ts);
        return o;
    }
}
