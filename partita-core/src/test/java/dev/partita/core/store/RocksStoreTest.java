package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * After a reopen the items sit in a file whose data blocks are not cached: the read that may not wait says so
     * (RocksDB's {@code Incomplete}) instead of reading the disk; once a plain get brought the block into the cache it
     * answers, both for a stored key and for an absent one in the same block. Fresh writes answer from the memtable.
     */
    @Test
    void aReadThatMayNotWaitAnswersFromMemoryAndSaysWhenItWouldReadTheDisk() {
        for (int i = 0; i < 100; i++) {
            put(k(i), v("value" + i));
        }
        assertThat(store.getWithoutWaiting(k(5)).value()).isEqualTo(v("value5")); // the memtable
        assertThat(store.getWithoutWaiting(k(500))).isEqualTo(Lookup.of(null));
        store.close();
        store = openStore(tmp);

        assertThat(store.getWithoutWaiting(k(5))).isSameAs(Lookup.WOULD_WAIT);
        assertThat(store.get(k(5))).isEqualTo(v("value5")); // reads the block into the cache
        Lookup cached = store.getWithoutWaiting(k(6));
        assertThat(cached.wouldWait()).isFalse();
        assertThat(cached.value()).isEqualTo(v("value6"));
        assertThat(store.getWithoutWaiting(k(5)).value()).isEqualTo(v("value5"));
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
    void exhaustedOrClosedDescendingCursorsFreeEveryNativeObject() throws Exception {
        for (int i = 0; i < 5; i++) {
            put(k(i), v("x"));
        }
        RocksStore rocks = (RocksStore) store;
        Snapshot s = store.snapshot();
        Cursor exhausted = s.scanDescending(k(1), k(4)); // both bounds: both Slices allocated
        while (exhausted.next()) {
            // read to the end without closing
        }
        Cursor unread = store.scanDescending(k(0), k(3));
        Cursor started = store.scanDescending(k(0), null);
        assertThat(started.next()).isTrue();
        assertThat(nativeObjects(unread)).hasSize(4).allMatch(RocksStoreTest::ownsHandle);
        assertThat(nativeObjects(exhausted)).hasSize(4).noneMatch(RocksStoreTest::ownsHandle);
        assertThat(rocks.children).hasSize(3); // the snapshot and the two open cursors
        unread.close();
        started.close();
        started.close(); // idempotent
        assertThat(nativeObjects(unread)).noneMatch(RocksStoreTest::ownsHandle);
        assertThat(nativeObjects(started)).hasSize(3).noneMatch(RocksStoreTest::ownsHandle);
        s.close();
        exhausted.close();
        assertThat(rocks.children).isEmpty();
        assertThat(rocks.nativeSnapshotCount()).isZero();
    }

    /** The iterator, read options and bound Slices a cursor allocated (null fields are ones it did not need). */
    private static List<Object> nativeObjects(Cursor cursor) throws ReflectiveOperationException {
        List<Object> out = new ArrayList<>();
        for (String name : List.of("iterator", "readOptions", "upperBound", "lowerBound")) {
            Field f = RocksCursor.class.getDeclaredField(name);
            f.setAccessible(true);
            Object o = f.get(cursor);
            if (o != null) {
                out.add(o);
            }
        }
        return out;
    }

    /**
     * Whether RocksJava still owns the native handle, i.e. it was not closed. Slice hides this method (protected), so
     * it is called reflectively: a Slice left open is the leak this test exists to catch.
     */
    private static boolean ownsHandle(Object nativeObject) {
        try {
            Method m = org.rocksdb.AbstractNativeReference.class.getDeclaredMethod("isOwningHandle");
            m.setAccessible(true);
            return (boolean) m.invoke(nativeObject);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aSecondOpenOfTheSameFolderFailsWithAHint() {
        assertThatThrownBy(() -> openStore(tmp)).isInstanceOf(StoreException.class)
                .hasMessageContaining("another process");
    }
}
