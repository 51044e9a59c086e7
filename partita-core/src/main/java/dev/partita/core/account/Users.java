package dev.partita.core.account;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.AccessScope;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import dev.partita.core.limits.Limits;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Users and their permissions (protocol.md §2.2): the resources a resource token is minted from. A permission grants
 * {@code all} or {@code read} access to one resource link (a container, or an item inside one), optionally only within
 * one logical partition. Records are keyed by the database's {@code _rid}, so a database deleted and re-created under
 * the same name starts without users:
 *
 * <pre>
 * meta "user/&lt;dbRid&gt;/&lt;userId&gt;"                 the user
 * meta "perm/&lt;dbRid&gt;/&lt;userId&gt;/&lt;permissionId&gt;"  the permission
 * meta "permrid/&lt;permissionRid&gt;"               "&lt;dbRid&gt;/&lt;userId&gt;/&lt;permissionId&gt;", to verify tokens
 * meta "users/next", "perms/next"             rid sequences
 * </pre>
 *
 * Users get the service's 8-byte rid (database bytes + 4 bytes with the top bit clear); permissions 16 bytes (user
 * rid + 8). Stateless over the store like {@link Offers}; mutations take the engine's metadata lock.
 */
public final class Users {
    private static final String USER = "user/";
    private static final String PERM = "perm/";
    private static final String PERM_RID = "permrid/";
    private static final String USER_NEXT = "users/next";
    private static final String PERM_NEXT = "perms/next";
    private static final String ETAG_NEXT = "users/etag-next";
    /** Etag scope of users and permissions, apart from the catalog (0), offers (bit 30) and items (bit 31). */
    private static final int ETAG_SCOPE = 0x20000000;

    private final Store store;
    private final Catalog catalog;
    private final Clock clock;
    private final Limits limits;
    private final Object lock;

    /** @param lock the engine's lock for metadata records (shared with {@link Offers}: their counters interleave) */
    public Users(Store store, Catalog catalog, Clock clock, Limits limits, Object lock) {
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.limits = limits;
        this.lock = lock;
    }

    /** A user of a database. */
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

    /**
     * A permission of a user.
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

    // ---- users

    public User createUser(DatabaseInfo db, ObjectNode body) {
        String id = userId(body);
        synchronized (lock) {
            if (findUser(db, id) != null) {
                throw ServiceException.conflict("A user with this id already exists in the database.");
            }
            return putUser(db, id, null);
        }
    }

    /** Creates the user, or replaces it if it exists; {@code created[0]} tells which. */
    public User upsertUser(DatabaseInfo db, ObjectNode body, boolean[] created) {
        String id = userId(body);
        synchronized (lock) {
            User old = findUser(db, id);
            created[0] = old == null;
            return putUser(db, id, old);
        }
    }

    public User readUser(DatabaseInfo db, String id) {
        User u = findUser(db, id);
        if (u == null) {
            throw ServiceException.notFound("The user does not exist.");
        }
        return u;
    }

    public List<User> listUsers(DatabaseInfo db) {
        List<User> out = new ArrayList<>();
        for (byte[] v : scan(USER + db.rid() + "/")) {
            out.add(readUserRecord(db.rid(), Json.parse(v, "user record")));
        }
        out.sort((a, b) -> a.rid().compareTo(b.rid()));
        return out;
    }

    /** Replaces a user's body. Renaming a user (a different id in the body) is not supported. */
    public User replaceUser(DatabaseInfo db, String id, ObjectNode body) {
        String newId = userId(body);
        if (!newId.equals(id)) {
            throw ServiceException.badRequest("Renaming a user is not supported; the id in the body must match the"
                    + " id in the path.");
        }
        synchronized (lock) {
            return putUser(db, id, readUser(db, id));
        }
    }

    /** Deletes the user and its permissions (their tokens stop working at once). */
    public void deleteUser(DatabaseInfo db, String id) {
        synchronized (lock) {
            readUser(db, id);
            WriteBatch batch = new WriteBatch();
            for (Permission p : listPermissions(db, id)) {
                batch.delete(StoreKeys.meta(PERM_RID + p.rid()));
            }
            deletePrefix(batch, PERM + db.rid() + "/" + id + "/");
            batch.delete(StoreKeys.meta(USER + db.rid() + "/" + id));
            store.apply(batch);
        }
    }

    /** Removes every user and permission of a database that is being deleted. */
    public void deleteDatabase(String databaseRid) {
        synchronized (lock) {
            WriteBatch batch = new WriteBatch();
            for (byte[] v : scan(PERM + databaseRid + "/")) {
                batch.delete(StoreKeys.meta(PERM_RID + Json.parse(v, "permission record").get("rid").asText()));
            }
            deletePrefix(batch, PERM + databaseRid + "/");
            deletePrefix(batch, USER + databaseRid + "/");
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        }
    }

    // ---- permissions

    public Permission createPermission(DatabaseInfo db, String userId, ObjectNode body) {
        synchronized (lock) {
            User user = readUser(db, userId);
            String id = permissionId(body);
            if (findPermission(db, userId, id) != null) {
                throw ServiceException.conflict("A permission with this id already exists for the user.");
            }
            return putPermission(db, user, id, body, null);
        }
    }

    public Permission upsertPermission(DatabaseInfo db, String userId, ObjectNode body, boolean[] created) {
        synchronized (lock) {
            User user = readUser(db, userId);
            String id = permissionId(body);
            Permission old = findPermission(db, userId, id);
            created[0] = old == null;
            return putPermission(db, user, id, body, old);
        }
    }

    public Permission readPermission(DatabaseInfo db, String userId, String id) {
        readUser(db, userId);
        Permission p = findPermission(db, userId, id);
        if (p == null) {
            throw ServiceException.notFound("The permission does not exist.");
        }
        return p;
    }

    public List<Permission> listPermissions(DatabaseInfo db, String userId) {
        User user = readUser(db, userId);
        List<Permission> out = new ArrayList<>();
        for (byte[] v : scan(PERM + db.rid() + "/" + userId + "/")) {
            out.add(readPermissionRecord(db.rid(), user, Json.parse(v, "permission record")));
        }
        out.sort((a, b) -> a.rid().compareTo(b.rid()));
        return out;
    }

    public Permission replacePermission(DatabaseInfo db, String userId, String id, ObjectNode body) {
        if (!permissionId(body).equals(id)) {
            throw ServiceException.badRequest("The permission id in the body does not match the id in the path.");
        }
        synchronized (lock) {
            User user = readUser(db, userId);
            Permission old = readPermission(db, userId, id);
            return putPermission(db, user, id, body, old);
        }
    }

    public void deletePermission(DatabaseInfo db, String userId, String id) {
        synchronized (lock) {
            Permission p = readPermission(db, userId, id);
            store.apply(new WriteBatch()
                    .delete(StoreKeys.meta(PERM + db.rid() + "/" + userId + "/" + id))
                    .delete(StoreKeys.meta(PERM_RID + p.rid())));
        }
    }

    /** The permission with this rid, or null if it was deleted (or its database was). */
    public Permission permissionByRid(String rid) {
        byte[] where = store.get(StoreKeys.meta(PERM_RID + rid));
        if (where == null) {
            return null;
        }
        String[] parts = new String(where, UTF_8).split("/", 3);
        if (parts.length != 3) {
            return null;
        }
        DatabaseInfo db;
        try {
            db = catalog.databaseByRid(parts[0]);
        } catch (ServiceException e) {
            return null;
        }
        User user = findUser(db, parts[1]);
        Permission p = user == null ? null : findPermission(db, parts[1], parts[2]);
        return p != null && p.rid().equals(rid) ? p : null;
    }

    /**
     * What a resource token minted from {@code p} may reach, with its resource link resolved to names (a rid-based
     * link names the database and container by rid): its container, an item or a script resource in it, its partition
     * key. A link that no longer resolves reaches nothing.
     */
    public AccessScope scopeOf(Permission p) {
        String[] s = p.resource().split("/");
        if (s.length < 4) {
            return AccessScope.nothing();
        }
        try {
            boolean ridBased = ResourceIds.isDatabaseRid(s[1]);
            String db = ridBased ? catalog.databaseByRid(s[1]).id() : s[1];
            byte[] coll = ridBased ? ResourceIds.tryDecode(s[3]) : null;
            String container = coll != null && coll.length == 8 ? catalog.containerByRid(s[3]).id() : s[3];
            String item = s.length >= 6 && s[4].equals("docs") ? s[5] : null;
            String child = s.length >= 6 && item == null ? s[4] : null;
            return new AccessScope(db, container, item, child, p.partitionKeyValue(), p.readOnly());
        } catch (ServiceException e) {
            return AccessScope.nothing();
        }
    }

    // ---- records

    private User putUser(DatabaseInfo db, String id, User old) {
        String rid = old != null ? old.rid() : newUserRid(db);
        long ts = nowSeconds();
        User u = new User(db.rid(), id, rid, ts, Etags.of(ETAG_SCOPE, nextSequence(ETAG_NEXT)));
        ObjectNode rec = Json.object();
        rec.put("id", id);
        rec.put("rid", rid);
        rec.put("ts", ts);
        rec.put("etag", u.etag());
        store.apply(new WriteBatch().put(StoreKeys.meta(USER + db.rid() + "/" + id), Json.bytes(rec)));
        return u;
    }

    private Permission putPermission(DatabaseInfo db, User user, String id, ObjectNode body, Permission old) {
        String mode = body.path("permissionMode").asText("").toLowerCase(Locale.ROOT);
        if (!mode.equals("all") && !mode.equals("read")) {
            throw ServiceException.badRequest("The permission's 'permissionMode' must be 'All' or 'Read'.");
        }
        JsonNode resource = body.get("resource");
        if (resource == null || !resource.isTextual() || resource.asText().isBlank()) {
            throw ServiceException.badRequest("The permission needs a 'resource' link, e.g. dbs/<db>/colls/<container>.");
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
        String rid = old != null ? old.rid() : newPermissionRid(user);
        long ts = nowSeconds();
        Permission p = new Permission(db.rid(), user.id(), user.rid(), id, rid, mode, link, partitionKey, ts,
                Etags.of(ETAG_SCOPE, nextSequence(ETAG_NEXT)));
        ObjectNode rec = Json.object();
        rec.put("id", id);
        rec.put("rid", rid);
        rec.put("mode", mode);
        rec.put("resource", link);
        if (partitionKey != null) {
            rec.set("partitionKey", partitionKey);
        }
        rec.put("ts", ts);
        rec.put("etag", p.etag());
        store.apply(new WriteBatch()
                .put(StoreKeys.meta(PERM + db.rid() + "/" + user.id() + "/" + id), Json.bytes(rec))
                .put(StoreKeys.meta(PERM_RID + rid), (db.rid() + "/" + user.id() + "/" + id).getBytes(UTF_8)));
        return p;
    }

    private User findUser(DatabaseInfo db, String id) {
        byte[] raw = store.get(StoreKeys.meta(USER + db.rid() + "/" + id));
        return raw == null ? null : readUserRecord(db.rid(), Json.parse(raw, "user record"));
    }

    private Permission findPermission(DatabaseInfo db, String userId, String id) {
        User user = findUser(db, userId);
        if (user == null) {
            return null;
        }
        byte[] raw = store.get(StoreKeys.meta(PERM + db.rid() + "/" + userId + "/" + id));
        return raw == null ? null : readPermissionRecord(db.rid(), user, Json.parse(raw, "permission record"));
    }

    private static User readUserRecord(String dbRid, JsonNode o) {
        return new User(dbRid, o.get("id").asText(), o.get("rid").asText(), o.get("ts").asLong(),
                o.get("etag").asText());
    }

    private static Permission readPermissionRecord(String dbRid, User user, JsonNode o) {
        JsonNode pk = o.get("partitionKey");
        return new Permission(dbRid, user.id(), user.rid(), o.get("id").asText(), o.get("rid").asText(),
                o.get("mode").asText(), o.get("resource").asText(), pk instanceof ArrayNode a ? a : null,
                o.get("ts").asLong(), o.get("etag").asText());
    }

    private String userId(ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The user body must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), "user", limits.maxResourceIdChars());
        return id.asText();
    }

    private String permissionId(ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The permission body must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), "permission", limits.maxResourceIdChars());
        return id.asText();
    }

    private String newUserRid(DatabaseInfo db) {
        long n = nextSequence(USER_NEXT);
        byte[] b = new byte[8];
        System.arraycopy(ResourceIds.tryDecode(db.rid()), 0, b, 0, 4);
        // the top bit of byte 4 must stay clear (set means a container); 0 would read as "no user"
        ResourceIds.writeInt(b, 4, (int) (n & 0x7FFFFFFF));
        return ResourceIds.encode(b);
    }

    private String newPermissionRid(User user) {
        long n = nextSequence(PERM_NEXT);
        byte[] b = new byte[16];
        System.arraycopy(ResourceIds.tryDecode(user.rid()), 0, b, 0, 8);
        for (int i = 15; i >= 8; i--) {
            b[i] = (byte) n;
            n >>>= 8;
        }
        return ResourceIds.encode(b);
    }

    /** Next value of a persisted counter, starting at 1. Callers hold {@code lock}. */
    private long nextSequence(String name) {
        byte[] key = StoreKeys.meta(name);
        byte[] raw = store.get(key);
        long n = raw == null ? 1 : Long.parseLong(new String(raw, UTF_8));
        store.apply(new WriteBatch().put(key, Long.toString(n + 1).getBytes(UTF_8)));
        return n;
    }

    private List<byte[]> scan(String prefix) {
        byte[] from = StoreKeys.meta(prefix);
        List<byte[]> out = new ArrayList<>();
        try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
            while (cur.next()) {
                out.add(cur.value());
            }
        }
        return out;
    }

    private void deletePrefix(WriteBatch batch, String prefix) {
        byte[] from = StoreKeys.meta(prefix);
        try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
            while (cur.next()) {
                batch.delete(cur.key().clone());
            }
        }
    }

    private long nowSeconds() {
        return clock.millis() / 1000;
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
