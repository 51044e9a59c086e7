package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MemoryStoreTest extends StoreContractTest {

    @Override
    protected Store openStore(Path tmp) {
        return new MemoryStore();
    }

    @Override
    protected long liveSnapshots(Store store) {
        return ((MemoryStore) store).openSnapshotCount();
    }

    private MemoryStore memory() {
        return (MemoryStore) store;
    }

    @Test
    void withoutSnapshotsOnlyTheLatestVersionIsKept() {
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 100; i++) {
                put(k(i), v("r" + round));
            }
        }
        assertThat(memory().versionCount()).isEqualTo(100);
        for (int i = 0; i < 50; i++) {
            delete(k(i));
        }
        assertThat(memory().versionCount()).as("tombstones are dropped at once").isEqualTo(50);
    }

    @Test
    void closingTheOldestSnapshotFreesTheVersionsItHeld() {
        for (int i = 0; i < 100; i++) {
            put(k(i), v("old"));
        }
        Snapshot old = store.snapshot();
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 100; i++) {
                put(k(i), v("new" + round));
            }
        }
        Snapshot newer = store.snapshot();
        for (int i = 0; i < 100; i++) {
            delete(k(i));
        }
        assertThat(memory().versionCount()).isEqualTo(100 * 12);
        old.close();
        // Only what the newer snapshot sees (one version) and the tombstones above it remain.
        assertThat(memory().versionCount()).isEqualTo(200);
        newer.close();
        assertThat(memory().versionCount()).isZero();
    }

    /** Each batch's new keys are a run: keys deleted and written again sit in several runs, merged and scanned. */
    @Test
    void scansAgreeWithAModelThroughDeletesRewritesAndSnapshots() {
        Random random = new Random(18);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        List<Snapshot> open = new ArrayList<>();
        List<TreeMap<byte[], byte[]>> seen = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            byte[] key = k(random.nextInt(120));
            if (random.nextInt(3) == 0) {
                delete(key);
                model.remove(key);
            } else {
                byte[] value = v("s" + step);
                put(key, value);
                model.put(key, value);
            }
            if (step % 250 == 0) {
                open.add(store.snapshot());
                seen.add(new TreeMap<>(model));
            }
            if (step % 400 == 399 && !open.isEmpty()) {
                assertScans(open.get(0), seen.get(0));
                open.remove(0).close();
                seen.remove(0);
            }
            if (step % 97 == 0) {
                byte[] from = k(random.nextInt(130));
                byte[] to = k(random.nextInt(130));
                assertThat(keys(store.scan(from, to))).isEqualTo(keys(range(model, from, to)));
                assertThat(keys(store.scanDescending(from, to)))
                        .isEqualTo(keys(range(model, from, to)).reversed());
            }
        }
        for (int i = 0; i < open.size(); i++) {
            assertScans(open.get(i), seen.get(i));
            open.get(i).close();
        }
        assertThat(keys(store.scan(null, null))).isEqualTo(keys(model));
        assertThat(((MemoryStore) store).versionCount()).isEqualTo(model.size());
    }

    private static void assertScans(Snapshot snapshot, TreeMap<byte[], byte[]> expected) {
        assertThat(keys(snapshot.scan(null, null))).isEqualTo(keys(expected));
        assertThat(keys(snapshot.scanDescending(null, null))).isEqualTo(keys(expected).reversed());
        try (Cursor c = snapshot.scan(null, null)) {
            while (c.next()) {
                assertThat(c.value()).isEqualTo(expected.get(c.key()));
            }
        }
    }

    private static List<String> keys(Map<byte[], byte[]> map) {
        return map.keySet().stream().map(Bytes::hex).toList();
    }
}
