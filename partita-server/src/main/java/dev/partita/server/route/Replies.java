package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.PathDecoder;
import dev.partita.server.http.Reply;
import java.util.List;

/** Reply shapes shared by the handlers: resources with their etag and content paths, and paged feeds. */
final class Replies {
    private Replies() {
    }

    static Reply resource(int status, ObjectNode json, String etag) {
        return Reply.json(status, json).header(Hdr.ETAG, etag);
    }

    /** The content-path headers of a database resource: alt = {@code dbs/{db}}, content = the database rid. */
    static Reply databasePaths(Reply r, DatabaseInfo db) {
        return r.header(Hdr.ALT_CONTENT_PATH, PathDecoder.encodePath("dbs/" + db.id()))
                .header(Hdr.CONTENT_PATH, db.rid());
    }

    /**
     * The content-path headers of a container resource: alt = {@code dbs/{db}} (the SDK appends the container id to
     * build its name link; change feed needs it), content = the container rid (the SDK clears session tokens by it on
     * delete).
     */
    static Reply containerPaths(Reply r, ContainerInfo c) {
        return r.header(Hdr.ALT_CONTENT_PATH, PathDecoder.encodePath("dbs/" + c.databaseId()))
                .header(Hdr.CONTENT_PATH, c.rid());
    }

    /** The content-path headers of anything inside a container: alt = {@code dbs/{db}/colls/{c}}, content = its rid. */
    static Reply itemPaths(Reply r, ContainerInfo c) {
        return r.header(Hdr.ALT_CONTENT_PATH, PathDecoder.encodePath(c.altLink()))
                .header(Hdr.CONTENT_PATH, c.rid());
    }

    /**
     * A feed page {@code {"_rid":owner,"<key>":[...],"_count":n}}. Pages by {@code x-ms-max-item-count} (absent or
     * non-positive: everything) with the offset as continuation.
     */
    static Reply feed(Exchange ex, String key, String ownerRid, List<? extends JsonNode> all) {
        int max = ex.intHeader(Hdr.MAX_ITEM_COUNT, -1);
        int from = 0;
        String cont = ex.header(Hdr.CONTINUATION);
        if (cont != null && !cont.isBlank()) {
            try {
                from = Integer.parseInt(cont.trim());
            } catch (NumberFormatException e) {
                throw ServiceException.badRequest("The continuation token is not one this feed handed out.");
            }
            if (from < 0 || from > all.size()) {
                throw ServiceException.badRequest("The continuation token is not one this feed handed out.");
            }
        }
        int to = max > 0 ? Math.min(all.size(), from + max) : all.size();
        ObjectNode body = Json.object();
        body.put("_rid", ownerRid);
        ArrayNode items = body.putArray(key);
        for (int i = from; i < to; i++) {
            items.add(all.get(i));
        }
        body.put("_count", to - from);
        Reply r = Reply.json(200, body).header(Hdr.ITEM_COUNT, Integer.toString(to - from));
        if (to < all.size()) {
            r.header(Hdr.CONTINUATION, Integer.toString(to));
        }
        return r;
    }

    /** A feed read, or a query over the same resources (POST with a query body) run by {@link MetadataQuery}. */
    static Reply feedOrQuery(Engine engine, Exchange ex, String key, String ownerRid, List<ObjectNode> all) {
        return feed(ex, key, ownerRid, ex.isQuery() && ex.hasBody() ? MetadataQuery.run(engine, ex, all) : all);
    }

    static ServiceException methodNotAllowed(Exchange ex) {
        return new ServiceException(405, 0, "The method " + ex.method() + " is not allowed on this resource.");
    }
}
