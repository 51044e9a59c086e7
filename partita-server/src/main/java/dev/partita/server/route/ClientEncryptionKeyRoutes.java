package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ClientEncryptionKey;
import dev.partita.core.account.ClientEncryptionKeys;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * {@code /dbs/{db}/clientencryptionkeys} (create, list, query) and {@code .../clientencryptionkeys/{key}} (read, with
 * If-None-Match; replace, with If-Match). Who may reach them is {@link Authorization#checkEncryptionKeys}'s to say.
 */
final class ClientEncryptionKeyRoutes {
    private final RouteContext ctx;
    private final Authorization authorization;
    private final ClientEncryptionKeys keys;

    ClientEncryptionKeyRoutes(RouteContext ctx, Authorization authorization) {
        this.ctx = ctx;
        this.authorization = authorization;
        this.keys = ctx.engine().clientEncryptionKeys();
    }

    Reply feed(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = database(ex, path, who);
        if (ex.method().equals(HttpMethod.POST) && !ex.isQuery()) {
            ObjectNode body = Json.parseObject(ex.body(), "client encryption key body");
            return reply(201, keys.create(db, body), db);
        }
        if (ex.method().equals(HttpMethod.GET) || ex.method().equals(HttpMethod.POST)) {
            List<ObjectNode> all = keys.list(db).stream().map(ClientEncryptionKey::toJson).toList();
            return Replies.databasePaths(
                    Replies.feedOrQuery(ctx.engine(), ex, "ClientEncryptionKeys", db.rid(), all), db);
        }
        throw Replies.methodNotAllowed(ex);
    }

    Reply one(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = database(ex, path, who);
        String id = path.ridBased() ? keys.readByRid(db, path.seg(3)).id() : path.seg(3);
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.GET)) {
            ClientEncryptionKey key = keys.read(db, id);
            String ifNoneMatch = ex.header(Hdr.IF_NONE_MATCH);
            if (ifNoneMatch != null && Etags.matches(ifNoneMatch, key.etag())) {
                // the SDKs' check that the key they cached is still current
                return Replies.databasePaths(Reply.status(304).header(Hdr.ETAG, key.etag()), db);
            }
            return reply(200, key, db);
        }
        if (m.equals(HttpMethod.PUT)) {
            ObjectNode body = Json.parseObject(ex.body(), "client encryption key body");
            return reply(200, keys.replace(db, id, body, ex.header(Hdr.IF_MATCH)), db);
        }
        if (m.equals(HttpMethod.DELETE)) {
            throw new ServiceException(405, 0, "A client encryption key cannot be deleted; it is removed with its"
                    + " database.");
        }
        throw Replies.methodNotAllowed(ex);
    }

    private DatabaseInfo database(Exchange ex, ResourcePath path, Principal who) {
        DatabaseInfo db = ctx.database(path);
        authorization.checkEncryptionKeys(who, ex, db);
        return db;
    }

    private static Reply reply(int status, ClientEncryptionKey key, DatabaseInfo db) {
        return Replies.databasePaths(Replies.resource(status, key.toJson(), key.etag()), db);
    }
}
