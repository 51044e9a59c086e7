package dev.partita.core.account;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.request.AccessScope;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import dev.partita.core.limits.Limits;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

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
 * Users and permissions get the service's rids ({@link ResourceIds#user}, {@link ResourceIds#permission}), which stay
 * when they are renamed. Stateless over the store like {@link Offers}; mutations take the engine's metadata lock.
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

    // ---- users

    public User createUser(DatabaseInfo db, ObjectNode body) {
        String id = userId(body);
        synchronized (lock) {
            if (findUser(db, id) != null) {
                throw ServiceException.conflict("A user with this id already exists in the database.");
            }
            return saveUser(db, id, null);
        }
    }

    /** Creates the user, or replaces it if it exists; {@code created[0]} tells which. */
    public User upsertUser(DatabaseInfo db, ObjectNode body, boolean[] created) {
        String id = userId(body);
        synchronized (lock) {
            User old = findUser(db, id);
            created[0] = old == null;
            return saveUser(db, id, old);
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

    /**
     * Replaces a user: its id is the only replaceable property, so a new id in the body renames it (409 when another
     * user has that id). The user keeps its rid and its permissions, whose tokens keep working.
     */
    public User replaceUser(DatabaseInfo db, String id, ObjectNode body) {
        String newId = userId(body);
        synchronized (lock) {
            User old = readUser(db, id);
            WriteBatch batch = new WriteBatch();
            if (!newId.equals(id)) {
                if (findUser(db, newId) != null) {
                    throw ServiceException.conflict("A user with this id already exists in the database.");
                }
                batch.delete(userKey(db, id));
                movePermissions(batch, db, id, newId);
            }
            User u = putUser(batch, db, newId, old);
            store.apply(batch);
            return u;
        }
    }

    /** Moves a user's permission records to its new id, and repoints the records its tokens are verified by. */
    private void movePermissions(WriteBatch batch, DatabaseInfo db, String from, String to) {
        byte[] prefix = StoreKeys.meta(PERM + db.rid() + "/" + from + "/");
        try (Cursor cur = store.scan(prefix, StoreKeys.prefixEnd(prefix))) {
            while (cur.next()) {
                String permissionId = new String(cur.key(), prefix.length, cur.key().length - prefix.length, UTF_8);
                String rid = Json.parse(cur.value(), "permission record").get("rid").asText();
                batch.delete(cur.key().clone())
                        .put(permissionKey(db, to, permissionId), cur.value().clone())
                        .put(StoreKeys.meta(PERM_RID + rid), pointer(db, to, permissionId));
            }
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
            batch.delete(userKey(db, id));
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
            return savePermission(db, user, id, body, null);
        }
    }

    public Permission upsertPermission(DatabaseInfo db, String userId, ObjectNode body, boolean[] created) {
        synchronized (lock) {
            User user = readUser(db, userId);
            String id = permissionId(body);
            Permission old = findPermission(db, userId, id);
            created[0] = old == null;
            return savePermission(db, user, id, body, old);
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

    /**
     * Replaces a permission's body; a new id in the body renames it (409 when another permission of the user has that
     * id). It keeps its rid, so the tokens minted from it keep working, with the grant as replaced.
     */
    public Permission replacePermission(DatabaseInfo db, String userId, String id, ObjectNode body) {
        String newId = permissionId(body);
        synchronized (lock) {
            User user = readUser(db, userId);
            Permission old = readPermission(db, userId, id);
            WriteBatch batch = new WriteBatch();
            if (!newId.equals(id)) {
                if (findPermission(db, userId, newId) != null) {
                    throw ServiceException.conflict("A permission with this id already exists for the user.");
                }
                batch.delete(permissionKey(db, userId, id));
            }
            Permission p = putPermission(batch, db, user, newId, body, old);
            store.apply(batch);
            return p;
        }
    }

    public void deletePermission(DatabaseInfo db, String userId, String id) {
        synchronized (lock) {
            Permission p = readPermission(db, userId, id);
            store.apply(new WriteBatch()
                    .delete(permissionKey(db, userId, id))
                    .delete(StoreKeys.meta(PERM_RID + p.rid())));
        }
    }

    /** The user of {@code db} with this rid (rid-based links, which the Java SDK's replace sends); 404 if none. */
    public User userByRid(DatabaseInfo db, String rid) {
        // users are few; a rid lookup scans them rather than keeping a second index in step with renames
        for (User u : listUsers(db)) {
            if (u.rid().equals(rid)) {
                return u;
            }
        }
        throw ServiceException.notFound("The user does not exist.");
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
            // a rid-based link (an item's _self) names the item by its rid, which only its stored version tells
            String itemRid = ridBased ? item : null;
            return new AccessScope(db, container, ridBased ? null : item, itemRid, child, p.partitionKeyValue(),
                    p.readOnly());
        } catch (ServiceException e) {
            return AccessScope.nothing();
        }
    }

    // ---- records

    private User saveUser(DatabaseInfo db, String id, User old) {
        WriteBatch batch = new WriteBatch();
        User u = putUser(batch, db, id, old);
        store.apply(batch);
        return u;
    }

    private User putUser(WriteBatch batch, DatabaseInfo db, String id, User old) {
        String rid = old != null ? old.rid() : newUserRid(db);
        long ts = nowSeconds();
        User u = new User(db.rid(), id, rid, ts, Etags.of(ETAG_SCOPE, nextSequence(ETAG_NEXT)));
        ObjectNode rec = Json.object();
        rec.put("id", id);
        rec.put("rid", rid);
        rec.put("ts", ts);
        rec.put("etag", u.etag());
        batch.put(userKey(db, id), Json.bytes(rec));
        return u;
    }

    private Permission savePermission(DatabaseInfo db, User user, String id, ObjectNode body, Permission old) {
        WriteBatch batch = new WriteBatch();
        Permission p = putPermission(batch, db, user, id, body, old);
        store.apply(batch);
        return p;
    }

    private Permission putPermission(WriteBatch batch, DatabaseInfo db, User user, String id, ObjectNode body,
            Permission old) {
        PermissionGrant grant = PermissionGrant.parse(body, db);
        String rid = old != null ? old.rid() : newPermissionRid(user);
        long ts = nowSeconds();
        Permission p = new Permission(db.rid(), user.id(), user.rid(), id, rid, grant.mode(), grant.resource(),
                grant.partitionKey(), ts, Etags.of(ETAG_SCOPE, nextSequence(ETAG_NEXT)));
        ObjectNode rec = Json.object();
        rec.put("id", id);
        rec.put("rid", rid);
        rec.put("mode", grant.mode());
        rec.put("resource", grant.resource());
        if (grant.partitionKey() != null) {
            rec.set("partitionKey", grant.partitionKey());
        }
        rec.put("ts", ts);
        rec.put("etag", p.etag());
        batch.put(permissionKey(db, user.id(), id), Json.bytes(rec))
                .put(StoreKeys.meta(PERM_RID + rid), pointer(db, user.id(), id));
        return p;
    }

    private static byte[] userKey(DatabaseInfo db, String id) {
        return StoreKeys.meta(USER + db.rid() + "/" + id);
    }

    private static byte[] permissionKey(DatabaseInfo db, String userId, String id) {
        return StoreKeys.meta(PERM + db.rid() + "/" + userId + "/" + id);
    }

    /** The value of a {@code permrid/} record: where the permission with that rid lives. */
    private static byte[] pointer(DatabaseInfo db, String userId, String id) {
        return (db.rid() + "/" + userId + "/" + id).getBytes(UTF_8);
    }

    private User findUser(DatabaseInfo db, String id) {
        byte[] raw = store.get(userKey(db, id));
        return raw == null ? null : readUserRecord(db.rid(), Json.parse(raw, "user record"));
    }

    private Permission findPermission(DatabaseInfo db, String userId, String id) {
        User user = findUser(db, userId);
        if (user == null) {
            return null;
        }
        byte[] raw = store.get(permissionKey(db, userId, id));
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
        return resourceId(body, "user");
    }

    private String permissionId(ObjectNode body) {
        return resourceId(body, "permission");
    }

    private String resourceId(ObjectNode body, String kind) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The " + kind + " body must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), kind, limits.maxResourceIdChars());
        return id.asText();
    }

    private String newUserRid(DatabaseInfo db) {
        return ResourceIds.encode(ResourceIds.user(ResourceIds.tryDecode(db.rid()), nextSequence(USER_NEXT)));
    }

    private String newPermissionRid(User user) {
        return ResourceIds.encode(ResourceIds.permission(ResourceIds.tryDecode(user.rid()), nextSequence(PERM_NEXT)));
    }

    /** Next value of a persisted counter, starting at 1. Callers hold {@code lock}. */
    private long nextSequence(String name) {
        return MetadataCounters.next(store, name);
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
}
