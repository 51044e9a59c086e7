package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.ChunkedWriter;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * Time to live: when an item expires under its container's settings, the TTL entries that find expired items, and the
 * rewrite of every item's expiry after the container's default changes. Expired items are invisible at once and
 * purged by the background sweep ({@link Items#purgeExpired}).
 */
final class Expiry {
    private Expiry() {
    }

    /**
     * 400 unless {@code ttl} is absent, -1 or a whole number of seconds in range. Checked when TTL is on; when it is
     * off, only a number is (the service refuses {@code "ttl": -10} in a container without TTL too, the JavaScript
     * SDK's bulk spec; other values there are not documented and stay data).
     */
    static void check(ContainerInfo c, JsonNode ttl, Limits limits) {
        if (ttl != null && (c.ttlEnabled() || ttl.isNumber()) && !valid(ttl, limits)) {
            throw ServiceException.badRequest("The item's 'ttl' must be -1 or a whole number of seconds between 1"
                    + " and " + limits.maxTtlSeconds() + ".");
        }
    }

    /** When an item written at {@code ts} expires under the container's TTL settings; 0 = never. */
    static long expiresAt(ContainerInfo c, JsonNode ttl, long ts, Limits limits) {
        if (!c.ttlEnabled()) {
            return 0;
        }
        int seconds = ttl != null && valid(ttl, limits) ? ttl.intValue() : c.defaultTtl();
        return seconds > 0 ? ts + seconds : 0;
    }

    private static boolean valid(JsonNode ttl, Limits limits) {
        return ttl.isIntegralNumber() && ttl.canConvertToInt() && ttl.intValue() != 0 && ttl.intValue() >= -1
                && ttl.intValue() <= limits.maxTtlSeconds();
    }

    /** The (EPK, id) of every item of {@code c} whose TTL entry falls due before {@code nowSeconds}. */
    static List<String[]> due(Store store, ContainerInfo c, long nowSeconds) {
        byte[] from = StoreKeys.containerStart(StoreKeys.ttlSpace(), c.containerId());
        byte[] to = StoreKeys.ttl(c.containerId(), nowSeconds + 1, "", "");
        List<String[]> due = new ArrayList<>();
        try (Cursor cur = store.scan(from, to)) {
            while (cur.next()) {
                due.add(new String[] {StoreKeys.ttlEpk(cur.key()), StoreKeys.ttlId(cur.key())});
            }
        }
        return due;
    }

    /**
     * Recomputes every item's expiry from its {@code _ts} after the container's default TTL changed, so that turning
     * TTL on, off or changing the default applies to items already written. The caller holds the writer lock.
     */
    static void recompute(Store store, ContainerInfo c, Limits limits) {
        byte[][] range = StoreKeys.containerItems(c.containerId());
        ChunkedWriter out = new ChunkedWriter(store);
        try (Cursor cur = store.scan(range[0], range[1])) {
            while (cur.next()) {
                StoredItem item = StoredItem.wrap(cur.value());
                JsonNode ttl = Json.parseObject(item.json(), "stored item").get("ttl");
                long expiresAt = expiresAt(c, ttl, item.ts(), limits);
                if (expiresAt == item.expiresAt()) {
                    continue;
                }
                String epk = StoreKeys.itemEpk(cur.key());
                String id = StoreKeys.itemId(cur.key());
                if (item.expiresAt() > 0) {
                    out.delete(StoreKeys.ttl(c.containerId(), item.expiresAt(), epk, id));
                }
                if (expiresAt > 0) {
                    out.put(StoreKeys.ttl(c.containerId(), expiresAt, epk, id));
                }
                out.put(cur.key(), item.withExpiry(expiresAt).bytes());
            }
        }
        out.flush();
    }
}
