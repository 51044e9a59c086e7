package dev.partita.core.account;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The client encryption keys of databases ({@code dbs/{db}/clientencryptionkeys}): what the SDKs' client-side
 * encryption stores next to the data it encrypts. Partita, like the service, keeps them as the client gave them and
 * never sees a plain key; it checks their shape, gives them rids and etags, and answers create (409 on a taken id),
 * read (304 for a matching If-None-Match: the SDKs' check that a cached key is still current), replace (the SDKs'
 * "rewrap", 412 for a stale If-Match) and the feed. There is no delete: the SDKs have none, and a key goes with its
 * database. Records are keyed by the database's {@code _rid}, so a re-created database starts without keys:
 *
 * <pre>
 * meta "cek/&lt;dbRid&gt;/&lt;keyId&gt;"   {"properties": {...}, "rid", "ts", "etag"}
 * meta "ceks/next"               the rid sequence; "ceks/etag-next" the etag sequence
 * </pre>
 *
 * Stateless over the store like {@link Users}; mutations take the engine's metadata lock.
 */
public final class ClientEncryptionKeys {
    private static final String KEY = "cek/";
    private static final String RID_NEXT = "ceks/next";
    private static final String ETAG_NEXT = "ceks/etag-next";
    /** Etag scope of client encryption keys, apart from the catalog (0), users (bit 29), offers (30), items (31). */
    private static final int ETAG_SCOPE = 0x10000000;
    private static final String KIND = "client encryption key";

    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Object lock;

    public ClientEncryptionKeys(Store store, Clock clock, Limits limits, Object lock) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        this.lock = lock;
    }

    public ClientEncryptionKey create(DatabaseInfo db, ObjectNode body) {
        ObjectNode properties = validated(body);
        String id = properties.get("id").asText();
        synchronized (lock) {
            if (find(db, id) != null) {
                throw ServiceException.conflict("A client encryption key with this id already exists in the database.");
            }
            return save(db, id, properties, newRid(db));
        }
    }

    public ClientEncryptionKey read(DatabaseInfo db, String id) {
        ClientEncryptionKey key = find(db, id);
        if (key == null) {
            throw ServiceException.notFound("The client encryption key does not exist.");
        }
        return key;
    }

    /** The key of {@code db} with this rid (rid-based links); 404 if none. */
    public ClientEncryptionKey readByRid(DatabaseInfo db, String rid) {
        for (ClientEncryptionKey key : list(db)) {
            if (key.rid().equals(rid)) {
                return key;
            }
        }
        throw ServiceException.notFound("The client encryption key does not exist.");
    }

    public List<ClientEncryptionKey> list(DatabaseInfo db) {
        List<ClientEncryptionKey> out = new ArrayList<>();
        byte[] from = StoreKeys.meta(KEY + db.rid() + "/");
        try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
            while (cur.next()) {
                out.add(record(db, Json.parse(cur.value(), "client encryption key record")));
            }
        }
        out.sort((a, b) -> a.rid().compareTo(b.rid()));
        return out;
    }

    /**
     * Replaces a key's properties (a rewrap: the same data key wrapped by another key encryption key). The id cannot
     * change; {@code ifMatch} (or null) must name the current etag.
     */
    public ClientEncryptionKey replace(DatabaseInfo db, String id, ObjectNode body, String ifMatch) {
        ObjectNode properties = validated(body);
        if (!properties.get("id").asText().equals(id)) {
            throw ServiceException.badRequest("The id of a client encryption key cannot be changed: the body names '"
                    + properties.get("id").asText() + "'.");
        }
        synchronized (lock) {
            ClientEncryptionKey old = read(db, id);
            if (ifMatch != null && !ifMatch.isBlank() && !Etags.matches(ifMatch, old.etag())) {
                throw ServiceException.preconditionFailed("The client encryption key was changed since the etag the"
                        + " request names (If-Match).");
            }
            return save(db, id, properties, old.rid());
        }
    }

    /** Removes every key of a database that is being deleted. */
    public void deleteDatabase(String databaseRid) {
        synchronized (lock) {
            WriteBatch batch = new WriteBatch();
            byte[] from = StoreKeys.meta(KEY + databaseRid + "/");
            try (Cursor cur = store.scan(from, StoreKeys.prefixEnd(from))) {
                while (cur.next()) {
                    batch.delete(cur.key().clone());
                }
            }
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        }
    }

    /**
     * The client's properties, checked: a string id, a string {@code encryptionAlgorithm}, a base64
     * {@code wrappedDataEncryptionKey} and a {@code keyWrapMetadata} object naming its key; system properties the
     * client echoes back are dropped.
     */
    private ObjectNode validated(ObjectNode body) {
        JsonNode id = body.get("id");
        if (id == null || !id.isTextual()) {
            throw ServiceException.badRequest("The client encryption key body must have a string 'id'.");
        }
        ResourceNames.validateResourceId(id.asText(), KIND, limits.maxResourceIdChars());
        requireText(body, "encryptionAlgorithm");
        String wrapped = requireText(body, "wrappedDataEncryptionKey");
        try {
            if (Base64.getDecoder().decode(wrapped).length == 0) {
                throw new IllegalArgumentException("empty");
            }
        } catch (IllegalArgumentException e) {
            throw ServiceException.badRequest("The client encryption key's 'wrappedDataEncryptionKey' must be a"
                    + " non-empty base64 string.");
        }
        JsonNode metadata = body.get("keyWrapMetadata");
        if (!(metadata instanceof ObjectNode m) || !m.path("name").isTextual() || !m.path("value").isTextual()) {
            throw ServiceException.badRequest("The client encryption key must have a 'keyWrapMetadata' object with"
                    + " a string 'name' and 'value' (the key encryption key that wraps it).");
        }
        ObjectNode properties = body.deepCopy();
        properties.remove(List.of("_rid", "_self", "_etag", "_ts"));
        return properties;
    }

    private static String requireText(ObjectNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw ServiceException.badRequest("The client encryption key must have a string '" + field + "'.");
        }
        return v.asText();
    }

    private ClientEncryptionKey save(DatabaseInfo db, String id, ObjectNode properties, String rid) {
        long ts = clock.millis() / 1000;
        String etag = Etags.of(ETAG_SCOPE, nextSequence(ETAG_NEXT));
        ObjectNode rec = Json.object();
        rec.set("properties", properties);
        rec.put("rid", rid);
        rec.put("ts", ts);
        rec.put("etag", etag);
        store.apply(new WriteBatch().put(key(db, id), Json.bytes(rec)));
        return new ClientEncryptionKey(db.rid(), id, rid, properties, ts, etag);
    }

    private ClientEncryptionKey find(DatabaseInfo db, String id) {
        byte[] raw = store.get(key(db, id));
        return raw == null ? null : record(db, Json.parse(raw, "client encryption key record"));
    }

    private static ClientEncryptionKey record(DatabaseInfo db, JsonNode rec) {
        ObjectNode properties = (ObjectNode) rec.get("properties");
        return new ClientEncryptionKey(db.rid(), properties.get("id").asText(), rec.get("rid").asText(), properties,
                rec.get("ts").asLong(), rec.get("etag").asText());
    }

    private static byte[] key(DatabaseInfo db, String id) {
        return StoreKeys.meta(KEY + db.rid() + "/" + id);
    }

    private String newRid(DatabaseInfo db) {
        return ResourceIds.encode(ResourceIds.clientEncryptionKey(ResourceIds.tryDecode(db.rid()),
                nextSequence(RID_NEXT)));
    }

    /** Next value of a persisted counter, starting at 1. Callers hold {@code lock}. */
    private long nextSequence(String name) {
        return MetadataCounters.next(store, name);
    }
}
