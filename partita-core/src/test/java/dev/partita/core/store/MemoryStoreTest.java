package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
}
