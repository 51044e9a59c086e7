package dev.partita.core.account;

import dev.partita.core.store.Store;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One lock per store for the small metadata registries ({@link Offers}, {@link Users}): their counters and records
 * must not interleave even when several registry instances serve one engine, and locking the store object itself
 * could contend with the store's own monitor.
 */
final class MetadataLocks {
    private static final Map<Store, Object> LOCKS = Collections.synchronizedMap(new WeakHashMap<>());

    private MetadataLocks() {
    }

    static Object of(Store store) {
        return LOCKS.computeIfAbsent(store, s -> new Object());
    }
}
