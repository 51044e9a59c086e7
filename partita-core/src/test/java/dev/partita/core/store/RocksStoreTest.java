package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RocksStoreTest extends StoreContractTest {

    @Override
    protected Store openStore(Path tmp) {
        return RocksStore.open(tmp.resolve("db"));
    }

    @Override
    protected long liveSnapshots(Store store) {
        return ((RocksStore) store).nativeSnapshotCount();
    }

    @Test
    void reopeningKeepsTheData() {
        for (int i = 0; i < 1_000; i++) {
            put(k(i), v("value" + i));
        }
        store.apply(new WriteBatch().delete(k(7)).put(k(8), new byte[0]));
        store.close();
        store = openStore(tmp);
        assertThat(store.get(k(7))).isNull();
        assertThat(store.get(k(8))).isEmpty();
        assertThat(store.get(k(999))).isEqualTo(v("value999"));
        assertThat(scanAll(store)).hasSize(999);
    }

    @Test
    void openCreatesMissingFoldersAndSyncWritesWork() {
        Path dir = tmp.resolve("a/b/c");
        try (RocksStore synced = RocksStore.open(dir, RocksStore.Settings.defaults().withSyncWrites(true))) {
            synced.apply(new WriteBatch().put(k(1), v("durable")));
            assertThat(synced.get(k(1))).isEqualTo(v("durable"));
        }
        try (RocksStore reopened = RocksStore.open(dir)) {
            assertThat(reopened.get(k(1))).isEqualTo(v("durable"));
        }
    }

    @Test
    void exhaustedOrClosedCursorsAndSnapshotsLeaveNothingOpen() {
        put(k(1), v("a"));
        RocksStore rocks = (RocksStore) store;
        Snapshot s = store.snapshot();
        Cursor exhausted = s.scan(null, null);
        while (exhausted.next()) {
            // read to the end without closing
        }
        Cursor unread = store.scan(null, null);
        assertThat(rocks.children).hasSize(2);
        unread.close();
        s.close();
        assertThat(rocks.children).isEmpty();
        assertThat(rocks.nativeSnapshotCount()).isZero();
    }

    @Test
    void aSecondOpenOfTheSameFolderFailsWithAHint() {
        assertThatThrownBy(() -> openStore(tmp)).isInstanceOf(StoreException.class)
                .hasMessageContaining("another process");
    }
}
