package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.item.StoredItem;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.StoreKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a crash test checks after each restart, whoever wrote the data (the engine in-process, or SDK clients through
 * a server): every acknowledged item is there with its acknowledged etag, every acknowledged batch of three ids
 * ({@code <base>a/b/c}) is whole, and no batch is there in part. Shared by the engine's and the server's crash tests.
 */
public final class CrashChecks {
    private CrashChecks() {
    }

    /** Every stored item of the container by id: one scan, so a check stays linear in the data. */
    public static Map<String, StoredItem> storedItems(Engine engine, ContainerInfo c) {
        Map<String, StoredItem> stored = new HashMap<>();
        byte[][] all = StoreKeys.containerItems(c.containerId());
        try (Cursor cur = engine.store().scan(all[0], all[1])) {
            while (cur.next()) {
                stored.put(StoreKeys.itemId(cur.key()), StoredItem.wrap(cur.value()));
            }
        }
        return stored;
    }

    /** @param etagById the acknowledged version of each acknowledged item */
    public static void assertAcknowledgedWritesSurvived(ContainerInfo c, Map<String, StoredItem> stored,
            Map<String, String> etagById, List<String[]> batches) {
        etagById.forEach((id, etag) -> {
            StoredItem item = stored.get(id);
            assertThat(item).as("acknowledged item %s", id).isNotNull();
            assertThat(Etags.of(c.containerId(), item.lsn())).as("acknowledged version of %s", id).isEqualTo(etag);
        });
        // plain set look-ups: AssertJ's contains() walks a collection, which is quadratic over 20 rounds of data
        for (String[] b : batches) {
            for (String id : b) {
                assertThat(stored.containsKey(id)).as("acknowledged batch item %s", id).isTrue();
            }
        }
        // no batch is there in part: the three ids of a batch are all there or all missing
        for (String id : stored.keySet()) {
            if (id.endsWith("a") || id.endsWith("b") || id.endsWith("c")) {
                String base = id.substring(0, id.length() - 1);
                assertThat(stored.containsKey(base + "a") && stored.containsKey(base + "b")
                        && stored.containsKey(base + "c")).as("batch %s is whole", base).isTrue();
            }
        }
    }
}
