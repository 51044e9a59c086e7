package dev.partita.core.account;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;

/** Persisted counters in the store's metadata space (rid and etag sequences of users, keys and the like). */
final class MetadataCounters {
    private MetadataCounters() {
    }

    /** The counter's next value, starting at 1; the caller holds the lock its records are changed under. */
    static long next(Store store, String name) {
        byte[] key = StoreKeys.meta(name);
        byte[] raw = store.get(key);
        long n = raw == null ? 1 : Long.parseLong(new String(raw, UTF_8));
        store.apply(new WriteBatch().put(key, Long.toString(n + 1).getBytes(UTF_8)));
        return n;
    }
}
