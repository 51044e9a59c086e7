package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one contract both stores must meet: the engine is tested against {@link MemoryStore} and runs on
 * {@link RocksStore}, so any behaviour the two do not share is a bug that only shows in production.
 */
abstract class StoreContractTest {

    /** A new, empty store whose files (if any) live under {@code tmp}. */
    protected abstract Store openStore(Path tmp);

    /** Snapshots the implementation still holds (including those behind open store-level cursors). */
    protected abstract long liveSnapshots(Store store);

    @TempDir
    Path tmp;

    Store store;

    @BeforeEach
    void open() {
        store = openStore(tmp);
    }

    @AfterEach
    void close() {
        store.close();
    }

    // ---- point operations

    @Test
    void getPutDelete() {
        assertThat(store.get(k(1))).isNull();
        put(k(1), v("one"));
        assertThat(store.get(k(1))).isEqualTo(v("one"));
        delete(k(1));
        assertThat(store.get(k(1))).isNull();
        delete(k(2)); // deleting an absent key is allowed and changes nothing
        assertThat(store.get(k(2))).isNull();
        assertThat(scanAll(store)).isEmpty();
    }

    @Test
    void overwriteKeepsOnlyTheLatestValue() {
        put(k(1), v("a"));
        put(k(1), v("b"));
        put(k(1), v("c"));
        assertThat(store.get(k(1))).isEqualTo(v("c"));
        assertThat(scanAll(store)).containsExactly(entry(k(1), v("c")));
    }

    @Test
    void emptyValuesAreValuesNotAbsence() {
        put(k(1), new byte[0]);
        assertThat(store.get(k(1))).isNotNull().isEmpty();
        assertThat(scanAll(store)).containsExactly(entry(k(1), new byte[0]));
    }

    @Test
    void theEmptyKeyIsTheSmallestKey() {
        put(new byte[] {0}, v("zero"));
        put(new byte[0], v("empty"));
        assertThat(store.get(new byte[0])).isEqualTo(v("empty"));
        assertThat(scanAll(store)).containsExactly(entry(new byte[0], v("empty")), entry(new byte[] {0}, v("zero")));
    }

    @Test
    void keysAreOrderedAsUnsignedBytes() {
        List<byte[]> sorted = List.of(new byte[0], b(0x00), b(0x00, 0x00), b(0x00, 0xFF), b(0x01), b(0x7F),
                b(0x7F, 0xFF), b(0x80), b(0x80, 0x00), b(0xFE, 0xFF), b(0xFF), b(0xFF, 0x00), b(0xFF, 0xFF),
                b(0xFF, 0xFF, 0xFF));
        List<byte[]> shuffled = new ArrayList<>(sorted);
        Collections.shuffle(shuffled, new Random(7));
        for (byte[] key : shuffled) {
            put(key, key);
        }
        for (byte[] key : sorted) {
            assertThat(store.get(key)).isEqualTo(key);
        }
        assertThat(scanAll(store)).extracting(e -> Bytes.hex(e.key()))
                .containsExactlyElementsOf(sorted.stream().map(Bytes::hex).toList());
        // A bound with a high bit set must not be read as a negative (small) byte.
        assertThat(keys(store.scan(b(0x7F), b(0x80)))).containsExactly("7f", "7fff");
        assertThat(keys(store.scan(b(0xFF), null))).containsExactly("ff", "ff00", "ffff", "ffffff");
        assertThat(keys(store.scan(null, b(0x00, 0x00)))).containsExactly("", "00");
    }

    @Test
    void scanIsHalfOpen() {
        for (int i = 0; i < 10; i++) {
            put(k(i), v("v" + i));
        }
        assertThat(keys(store.scan(k(2), k(5)))).containsExactly(hex(k(2)), hex(k(3)), hex(k(4)));
        assertThat(keys(store.scan(k(5), k(5)))).isEmpty();
        assertThat(keys(store.scan(k(6), k(3)))).isEmpty();
        assertThat(keys(store.scan(k(8), null))).containsExactly(hex(k(8)), hex(k(9)));
        assertThat(keys(store.scan(null, k(1)))).containsExactly(hex(k(0)));
        assertThat(keys(store.scan(null, null))).hasSize(10);
        // Bounds between keys: from a longer key that is not stored, to a prefix of a stored key.
        byte[] between = ByteBuffer.allocate(5).putInt(3).put((byte) 0).array();
        assertThat(keys(store.scan(between, k(5)))).containsExactly(hex(k(4)));
    }

    @Test
    void prefixScanWithPrefixEnd() {
        put(b(0x01, 0xFF), v("a"));
        put(b(0x01, 0xFF, 0x00), v("b"));
        put(b(0x01, 0xFF, 0xFF), v("c"));
        put(b(0x02), v("d"));
        put(b(0xFF, 0xFF), v("e"));
        byte[] prefix = b(0x01, 0xFF);
        assertThat(keys(store.scan(prefix, Bytes.prefixEnd(prefix)))).containsExactly("01ff", "01ff00", "01ffff");
        assertThat(Bytes.prefixEnd(b(0xFF, 0xFF))).isNull();
        assertThat(keys(store.scan(b(0xFF), Bytes.prefixEnd(b(0xFF))))).containsExactly("ffff");
    }

    @Test
    void scanReturnsEveryKeyInOrder() {
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        Random random = new Random(42);
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 2_000; i++) {
            byte[] key = new byte[1 + random.nextInt(6)];
            random.nextBytes(key);
            byte[] value = new byte[random.nextInt(40)];
            random.nextBytes(value);
            model.put(key, value);
            batch.put(key, value);
            if (batch.size() == 100) {
                store.apply(batch);
                batch = new WriteBatch();
            }
        }
        store.apply(batch);
        assertThat(scanAll(store)).containsExactlyElementsOf(entries(model));
        byte[] from = b(0x40);
        byte[] to = b(0xC0, 0x10);
        assertThat(collect(store.scan(from, to))).containsExactlyElementsOf(entries(model.subMap(from, to)));
    }

    @Test
    void cursorArraysStayValidAfterMoving() {
        for (int i = 0; i < 5; i++) {
            put(k(i), v("v" + i));
        }
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Cursor c = store.scan(null, null)) {
            while (c.next()) {
                keys.add(c.key());
                values.add(c.value());
            }
            assertThat(c.next()).isFalse();
        }
        for (int i = 0; i < 5; i++) {
            assertThat(keys.get(i)).isEqualTo(k(i));
            assertThat(values.get(i)).isEqualTo(v("v" + i));
        }
    }

    @Test
    void cursorRefusesKeyBeforeNext() {
        put(k(1), v("a"));
        try (Cursor c = store.scan(null, null)) {
            assertThatThrownBy(c::key).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theCallerMayReuseItsArraysAfterApply() {
        byte[] key = k(1);
        byte[] value = v("original");
        put(key, value);
        key[3] = 9;
        value[0] = 'X';
        assertThat(store.get(k(1))).isEqualTo(v("original"));
        assertThat(store.get(k(9))).isNull();
    }

    @Test
    void theCallerMayReuseScanBoundsOnceScanReturns() {
        for (int i = 0; i < 5; i++) {
            put(k(i), v("v" + i));
        }
        byte[] from = k(1);
        byte[] to = k(3);
        try (Cursor c = store.scan(from, to)) {
            from[3] = 0;
            to[3] = 5;
            List<String> keys = new ArrayList<>();
            while (c.next()) {
                keys.add(hex(c.key()));
            }
            assertThat(keys).containsExactly(hex(k(1)), hex(k(2)));
        }
    }

    // ---- batches

    @Test
    void aBatchAppliesInOrderAndTheLastOperationOnAKeyWins() {
        put(k(3), v("old"));
        store.apply(new WriteBatch()
                .put(k(1), v("first"))
                .put(k(1), v("second"))
                .delete(k(2))
                .put(k(2), v("back"))
                .put(k(3), v("gone soon"))
                .delete(k(3)));
        assertThat(store.get(k(1))).isEqualTo(v("second"));
        assertThat(store.get(k(2))).isEqualTo(v("back"));
        assertThat(store.get(k(3))).isNull();
        assertThat(keys(store.scan(null, null))).containsExactly(hex(k(1)), hex(k(2)));
        store.apply(new WriteBatch()); // an empty batch is a no-op
        assertThat(keys(store.scan(null, null))).hasSize(2);
    }

    @Test
    void readersNeverSeeHalfABatch() throws Exception {
        int accounts = 8;
        long total = accounts * 1_000L;
        WriteBatch init = new WriteBatch();
        for (int i = 0; i < accounts; i++) {
            init.put(account(i), longBytes(1_000));
        }
        store.apply(init);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong checks = new AtomicLong();
        long deadline = System.nanoTime() + 800_000_000L;
        BooleanSupplier running = () -> failure.get() == null && System.nanoTime() < deadline;
        // One writer moves money between two accounts per batch: the total only holds if batches are atomic.
        Thread writer = start(failure, () -> {
            Random random = new Random(1);
            while (running.getAsBoolean()) {
                int from = random.nextInt(accounts);
                int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                long amount = random.nextInt(100);
                store.apply(new WriteBatch()
                        .put(account(from), longBytes(asLong(store.get(account(from))) - amount))
                        .put(account(to), longBytes(asLong(store.get(account(to))) + amount)));
            }
        });
        List<Thread> readers = new ArrayList<>();
        readers.add(start(failure, () -> {
            while (running.getAsBoolean()) {
                try (Snapshot s = store.snapshot()) {
                    long sum = 0;
                    for (int i = 0; i < accounts; i++) {
                        sum += asLong(s.get(account(i)));
                    }
                    assertThat(sum).as("sum of snapshot gets").isEqualTo(total);
                    assertThat(sumOf(s.scan(b('A'), b('B')), accounts)).as("sum of a snapshot scan").isEqualTo(total);
                }
                checks.incrementAndGet();
            }
        }));
        readers.add(start(failure, () -> {
            while (running.getAsBoolean()) {
                assertThat(sumOf(store.scan(b('A'), b('B')), accounts)).as("sum of a store scan").isEqualTo(total);
                checks.incrementAndGet();
            }
        }));
        join(writer, readers, failure);
        assertThat(checks.get()).isPositive();
        assertThat(liveSnapshots(store)).isZero();
    }

    @Test
    void concurrentWritersAndReadersKeepEveryBatchWhole() throws Exception {
        int writers = 3;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long deadline = System.nanoTime() + 600_000_000L;
        BooleanSupplier running = () -> failure.get() == null && System.nanoTime() < deadline;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int id = w;
            // Each writer owns a pair of keys and always writes both with the same counter.
            threads.add(start(failure, () -> {
                for (long n = 0; running.getAsBoolean(); n++) {
                    store.apply(new WriteBatch().put(b('P', id, 0), longBytes(n)).put(b('P', id, 1), longBytes(n)));
                }
            }));
        }
        for (int r = 0; r < 2; r++) {
            threads.add(start(failure, () -> {
                while (running.getAsBoolean()) {
                    try (Snapshot s = store.snapshot(); Cursor c = s.scan(b('P'), b('Q'))) {
                        Map<Integer, List<Long>> pairs = new TreeMap<>();
                        while (c.next()) {
                            pairs.computeIfAbsent((int) c.key()[1], x -> new ArrayList<>()).add(asLong(c.value()));
                        }
                        pairs.forEach((id, values) -> assertThat(values).as("pair " + id).hasSize(2)
                                .allMatch(x -> x.equals(values.get(0))));
                    }
                }
            }));
        }
        join(null, threads, failure);
        for (int w = 0; w < writers; w++) {
            assertThat(store.get(b('P', w, 0))).isEqualTo(store.get(b('P', w, 1)));
        }
    }

    // ---- snapshots

    @Test
    void aSnapshotDoesNotSeeLaterWrites() {
        put(k(1), v("a1"));
        put(k(2), v("b1"));
        try (Snapshot s = store.snapshot()) {
            store.apply(new WriteBatch().put(k(1), v("a2")).delete(k(2)).put(k(3), v("c2")));
            assertThat(s.get(k(1))).isEqualTo(v("a1"));
            assertThat(s.get(k(2))).isEqualTo(v("b1"));
            assertThat(s.get(k(3))).isNull();
            assertThat(collect(s.scan(null, null))).containsExactly(entry(k(1), v("a1")), entry(k(2), v("b1")));
            assertThat(collect(store.scan(null, null))).containsExactly(entry(k(1), v("a2")), entry(k(3), v("c2")));
        }
    }

    @Test
    void aSnapshotSurvivesManyLaterWrites() {
        TreeMap<byte[], byte[]> before = new TreeMap<>(Bytes.COMPARATOR);
        for (int i = 0; i < 200; i++) {
            put(k(i), v("before" + i));
            before.put(k(i), v("before" + i));
        }
        try (Snapshot s = store.snapshot()) {
            byte[] payload = new byte[512];
            for (int round = 0; round < 40; round++) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < 200; i++) {
                    if ((i + round) % 7 == 0) {
                        batch.delete(k(i));
                    } else {
                        batch.put(k(i), payload);
                    }
                    batch.put(k(1_000 + round * 200 + i), payload);
                }
                store.apply(batch);
            }
            assertThat(collect(s.scan(null, null))).containsExactlyElementsOf(entries(before));
            for (int i = 0; i < 200; i++) {
                assertThat(s.get(k(i))).isEqualTo(v("before" + i));
            }
            assertThat(liveSnapshots(store)).isEqualTo(1);
        }
        assertThat(liveSnapshots(store)).isZero();
    }

    @Test
    void closingASnapshotReleasesItAndMakesItUnusable() {
        put(k(1), v("a"));
        Snapshot s = store.snapshot();
        Cursor open = s.scan(null, null);
        assertThat(liveSnapshots(store)).isEqualTo(1);
        s.close();
        s.close(); // idempotent
        assertThat(liveSnapshots(store)).isZero();
        assertThatThrownBy(() -> s.get(k(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> s.scan(null, null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(open::next).isInstanceOf(IllegalStateException.class);
        open.close();
    }

    @Test
    void aStoreScanHoldsNothingOnceExhaustedOrClosed() {
        put(k(1), v("a"));
        put(k(2), v("b"));
        Cursor exhausted = store.scan(null, null);
        while (exhausted.next()) {
            // read to the end without closing
        }
        Cursor closedEarly = store.scan(null, null);
        assertThat(closedEarly.next()).isTrue();
        closedEarly.close();
        assertThat(liveSnapshots(store)).isZero();
        assertThatThrownBy(closedEarly::next).isInstanceOf(IllegalStateException.class);
        exhausted.close();
    }

    @Test
    void aStoreScanIsConsistentWhileWritesGoOn() {
        for (int i = 0; i < 100; i++) {
            put(k(i), v("old"));
        }
        List<Map.Entry<String, String>> seen = new ArrayList<>();
        try (Cursor c = store.scan(null, null)) {
            for (int i = 0; c.next(); i++) {
                seen.add(Map.entry(hex(c.key()), new String(c.value())));
                if (i == 10) {
                    store.apply(new WriteBatch().put(k(50), v("new")).delete(k(60)).put(k(99_999), v("new")));
                }
            }
        }
        assertThat(seen).hasSize(100).allMatch(e -> e.getValue().equals("old"));
    }

    @Test
    void closingTheStoreClosesWhatIsStillOpen() {
        for (int i = 0; i < 3; i++) {
            put(k(i), v("x"));
        }
        Snapshot s = store.snapshot();
        Cursor fromSnapshot = s.scan(null, null);
        Cursor fromStore = store.scan(null, null);
        assertThat(fromSnapshot.next()).isTrue();
        assertThat(fromStore.next()).isTrue();
        store.close();
        store.close(); // idempotent
        assertThatThrownBy(() -> store.get(k(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.apply(new WriteBatch().put(k(1), v("y"))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(store::snapshot).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> s.get(k(1))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fromSnapshot::next).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fromStore::next).isInstanceOf(IllegalStateException.class);
        fromSnapshot.close();
        fromStore.close();
        s.close();
    }

    @Test
    void closingTheStoreUnderLoadFailsReadersCleanly() throws Exception {
        for (int i = 0; i < 100; i++) {
            put(k(i), v("x"));
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            threads.add(start(failure, () -> {
                try {
                    for (int n = 0; ; n++) {
                        switch ((n + id) % 4) {
                            case 0 -> store.get(k(n % 100));
                            case 1 -> collect(store.scan(k(10), k(60)));
                            case 2 -> {
                                try (Snapshot s = store.snapshot(); Cursor c = s.scan(null, null)) {
                                    s.get(k(1));
                                    while (c.next()) {
                                        c.value();
                                    }
                                }
                            }
                            default -> put(k(n % 100), v("y" + n));
                        }
                    }
                } catch (IllegalStateException expected) {
                    // the store (or the snapshot or cursor it closed) refused: the only acceptable failure
                }
            }));
        }
        Thread.sleep(200);
        store.close();
        join(null, threads, failure);
    }

    // ---- descending scans

    @Test
    void descendingScanIsHalfOpenAndStartsBelowTheUpperBound() {
        for (int i = 0; i < 10; i++) {
            put(k(i), v("v" + i));
        }
        assertThat(keys(store.scanDescending(k(2), k(5)))).containsExactly(hex(k(4)), hex(k(3)), hex(k(2)));
        assertThat(keys(store.scanDescending(k(5), k(5)))).isEmpty();
        assertThat(keys(store.scanDescending(k(6), k(3)))).isEmpty();
        assertThat(keys(store.scanDescending(k(8), null))).containsExactly(hex(k(9)), hex(k(8)));
        assertThat(keys(store.scanDescending(null, k(2)))).containsExactly(hex(k(1)), hex(k(0)));
        assertThat(keys(store.scanDescending(null, null))).hasSize(10).first().isEqualTo(hex(k(9)));
        assertThat(keys(store.scanDescending(k(9), k(10)))).containsExactly(hex(k(9)));
        assertThat(keys(store.scanDescending(k(10), null))).isEmpty();
        assertThat(keys(store.scanDescending(null, k(0)))).isEmpty();
        // Bounds between keys: from a longer key that is not stored, to a prefix of a stored key.
        byte[] between = ByteBuffer.allocate(5).putInt(3).put((byte) 0).array();
        assertThat(keys(store.scanDescending(between, k(5)))).containsExactly(hex(k(4)));
        assertThat(keys(store.scanDescending(k(1), between))).containsExactly(hex(k(3)), hex(k(2)), hex(k(1)));
    }

    @Test
    void descendingScanOrdersKeysAsUnsignedBytes() {
        List<byte[]> sorted = List.of(new byte[0], b(0x00), b(0x00, 0x00), b(0x00, 0xFF), b(0x01), b(0x7F),
                b(0x7F, 0xFF), b(0x80), b(0x80, 0x00), b(0xFE, 0xFF), b(0xFF), b(0xFF, 0x00), b(0xFF, 0xFF),
                b(0xFF, 0xFF, 0xFF));
        List<byte[]> shuffled = new ArrayList<>(sorted);
        Collections.shuffle(shuffled, new Random(7));
        for (byte[] key : shuffled) {
            put(key, key);
        }
        List<String> descending = new ArrayList<>(sorted.stream().map(Bytes::hex).toList());
        Collections.reverse(descending);
        assertThat(collect(store.scanDescending(null, null))).extracting(e -> hex(e.key()))
                .containsExactlyElementsOf(descending);
        assertThat(collect(store.scanDescending(null, null))).allMatch(e -> Arrays.equals(e.key(), e.value()));
        assertThat(keys(store.scanDescending(b(0x7F), b(0x80)))).containsExactly("7fff", "7f");
        assertThat(keys(store.scanDescending(b(0xFF), null))).containsExactly("ffffff", "ffff", "ff00", "ff");
        assertThat(keys(store.scanDescending(null, b(0x00, 0x00)))).containsExactly("00", "");
        byte[] prefix = b(0xFF);
        assertThat(keys(store.scanDescending(prefix, Bytes.prefixEnd(prefix))))
                .containsExactly("ffffff", "ffff", "ff00", "ff");
    }

    /** The same keys as the ascending scan, reversed, and both agree with a sorted map; bounds drawn at random. */
    @Test
    void descendingIsTheReverseOfAscendingForRandomKeysAndBounds() {
        Random random = new Random(11);
        for (int round = 0; round < 20; round++) {
            TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
            WriteBatch batch = new WriteBatch();
            // Wipe the previous round so every round starts from a fresh random key set.
            for (Entry e : scanAll(store)) {
                batch.delete(e.key());
            }
            int n = random.nextInt(200);
            for (int i = 0; i < n; i++) {
                byte[] key = randomKey(random);
                byte[] value = new byte[random.nextInt(8)];
                random.nextBytes(value);
                if (random.nextInt(5) == 0) {
                    batch.delete(key); // tombstones among the live keys, also right at the bounds
                    model.remove(key);
                } else {
                    batch.put(key, value);
                    model.put(key, value);
                }
            }
            store.apply(batch);
            List<byte[]> existing = new ArrayList<>(model.keySet());
            for (int q = 0; q < 40; q++) {
                byte[] from = randomBound(random, existing);
                byte[] to = randomBound(random, existing);
                List<Entry> ascending = collect(store.scan(from, to));
                List<Entry> reversed = new ArrayList<>(ascending);
                Collections.reverse(reversed);
                List<Entry> expected = new ArrayList<>(entries(range(model, from, to)));
                Collections.reverse(expected);
                assertThat(collect(store.scanDescending(from, to))).as("round %d [%s, %s)", round, hex(from), hex(to))
                        .containsExactlyElementsOf(expected)
                        .containsExactlyElementsOf(reversed);
            }
        }
        assertThat(liveSnapshots(store)).isZero();
    }

    private static byte[] randomKey(Random random) {
        byte[] key = new byte[random.nextInt(4)];
        for (int i = 0; i < key.length; i++) {
            // Few distinct bytes so keys share prefixes; both ends of the unsigned order included.
            key[i] = (byte) new int[] {0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF}[random.nextInt(6)];
        }
        return key;
    }

    /** Null, an existing key (a bound equal to a key), or any key; inverted and empty ranges follow by chance. */
    private static byte[] randomBound(Random random, List<byte[]> existing) {
        int pick = random.nextInt(6);
        if (pick == 0) {
            return null;
        }
        if (pick <= 2 && !existing.isEmpty()) {
            return existing.get(random.nextInt(existing.size())).clone();
        }
        return randomKey(random);
    }

    @Test
    void descendingCursorKeepsTheCursorContract() {
        for (int i = 0; i < 5; i++) {
            put(k(i), v("v" + i));
        }
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Cursor c = store.scanDescending(null, null)) {
            assertThatThrownBy(c::key).isInstanceOf(IllegalStateException.class);
            while (c.next()) {
                keys.add(c.key());
                values.add(c.value());
            }
            assertThat(c.next()).isFalse();
            assertThat(c.next()).isFalse();
            assertThatThrownBy(c::value).isInstanceOf(IllegalStateException.class);
            c.close(); // idempotent with the try's close
        }
        for (int i = 0; i < 5; i++) {
            assertThat(keys.get(i)).isEqualTo(k(4 - i));
            assertThat(values.get(i)).isEqualTo(v("v" + (4 - i)));
        }
        // The caller may reuse the bounds once scanDescending returns.
        byte[] from = k(1);
        byte[] to = k(3);
        try (Cursor c = store.scanDescending(from, to)) {
            from[3] = 0;
            to[3] = 5;
            List<String> seen = new ArrayList<>();
            while (c.next()) {
                seen.add(hex(c.key()));
            }
            assertThat(seen).containsExactly(hex(k(2)), hex(k(1)));
        }
    }

    @Test
    void aSnapshotsDescendingScanDoesNotSeeLaterWritesOrDeletedKeys() {
        put(k(1), v("a1"));
        put(k(2), v("b1"));
        put(k(4), v("d1"));
        delete(k(4)); // deleted before the snapshot: never seen
        try (Snapshot s = store.snapshot()) {
            store.apply(new WriteBatch().put(k(1), v("a2")).delete(k(2)).put(k(3), v("c2")).put(k(4), v("d2"))
                    .put(k(0), v("z2")));
            assertThat(collect(s.scanDescending(null, null)))
                    .containsExactly(entry(k(2), v("b1")), entry(k(1), v("a1")));
            assertThat(collect(s.scanDescending(k(1), k(4))))
                    .containsExactly(entry(k(2), v("b1")), entry(k(1), v("a1")));
            assertThat(collect(s.scanDescending(k(2), null))).containsExactly(entry(k(2), v("b1")));
            assertThat(collect(store.scanDescending(null, null))).containsExactly(entry(k(4), v("d2")),
                    entry(k(3), v("c2")), entry(k(1), v("a2")), entry(k(0), v("z2")));
            // Writes while a descending snapshot cursor is open are not seen either.
            List<Entry> seen = new ArrayList<>();
            try (Cursor c = s.scanDescending(null, null)) {
                assertThat(c.next()).isTrue();
                seen.add(entry(c.key(), c.value()));
                store.apply(new WriteBatch().delete(k(1)).put(b(0x00, 0x00, 0x00, 0x01, 0x00), v("new")));
                while (c.next()) {
                    seen.add(entry(c.key(), c.value()));
                }
            }
            assertThat(seen).containsExactly(entry(k(2), v("b1")), entry(k(1), v("a1")));
        }
    }

    @Test
    void aSnapshotsDescendingScanSurvivesManyLaterWrites() {
        TreeMap<byte[], byte[]> before = new TreeMap<>(Bytes.COMPARATOR);
        for (int i = 0; i < 200; i++) {
            put(k(i), v("before" + i));
            before.put(k(i), v("before" + i));
        }
        try (Snapshot s = store.snapshot()) {
            for (int round = 0; round < 20; round++) {
                WriteBatch batch = new WriteBatch();
                for (int i = 0; i < 200; i++) {
                    if ((i + round) % 3 == 0) {
                        batch.delete(k(i));
                    } else {
                        batch.put(k(i), v("after" + round));
                    }
                    batch.put(k(1_000 + round * 200 + i), v("new"));
                }
                store.apply(batch);
            }
            List<Entry> expected = new ArrayList<>(entries(before));
            Collections.reverse(expected);
            assertThat(collect(s.scanDescending(null, null))).containsExactlyElementsOf(expected);
            assertThat(collect(s.scanDescending(k(50), k(150)))).containsExactlyElementsOf(
                    expected.subList(200 - 150, 200 - 50));
        }
        assertThat(liveSnapshots(store)).isZero();
    }

    @Test
    void aStoreDescendingScanHoldsNothingOnceExhaustedOrClosed() {
        put(k(1), v("a"));
        put(k(2), v("b"));
        Cursor exhausted = store.scanDescending(null, null);
        while (exhausted.next()) {
            // read to the end without closing
        }
        Cursor closedEarly = store.scanDescending(k(1), k(3));
        assertThat(closedEarly.next()).isTrue();
        closedEarly.close();
        Cursor empty = store.scanDescending(k(3), k(1));
        assertThat(empty.next()).isFalse();
        assertThat(liveSnapshots(store)).isZero();
        assertThatThrownBy(closedEarly::next).isInstanceOf(IllegalStateException.class);
        exhausted.close();
        empty.close();
    }

    @Test
    void closingASnapshotOrTheStoreMakesDescendingCursorsUnusable() {
        for (int i = 0; i < 3; i++) {
            put(k(i), v("x"));
        }
        Snapshot s = store.snapshot();
        Cursor fromClosedSnapshot = s.scanDescending(null, null);
        s.close();
        assertThat(liveSnapshots(store)).isZero();
        assertThatThrownBy(() -> s.scanDescending(null, null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fromClosedSnapshot::next).isInstanceOf(IllegalStateException.class);
        fromClosedSnapshot.close();

        Snapshot open = store.snapshot();
        Cursor fromSnapshot = open.scanDescending(k(0), k(3));
        Cursor fromStore = store.scanDescending(null, k(2));
        assertThat(fromSnapshot.next()).isTrue();
        assertThat(fromStore.next()).isTrue();
        store.close();
        assertThatThrownBy(() -> store.scanDescending(null, null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fromSnapshot::next).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(fromStore::next).isInstanceOf(IllegalStateException.class);
        fromSnapshot.close();
        fromStore.close();
        open.close();
    }

    // ---- the model

    /** A random sequence of operations must leave the store and a sorted map agreeing, snapshots included. */
    @Property(tries = 60)
    void behavesLikeASortedMap(@ForAll("actions") List<Action> actions) throws IOException {
        Path dir = Files.createTempDirectory("store-model");
        Store s = openStore(dir);
        try {
            new ModelRun(s).run(actions);
            assertThat(liveSnapshots(s)).isZero();
        } finally {
            s.close();
            deleteRecursively(dir);
        }
    }

    sealed interface Action {
    }

    record Put(byte[] key, byte[] value) implements Action {
    }

    record Delete(byte[] key) implements Action {
    }

    record Batch(List<Action> ops) implements Action {
    }

    record Get(byte[] key) implements Action {
    }

    record Scan(byte[] from, byte[] to) implements Action {
    }

    record ScanDescending(byte[] from, byte[] to) implements Action {
    }

    record TakeSnapshot() implements Action {
    }

    record CheckAndCloseOldestSnapshot() implements Action {
    }

    @Provide
    Arbitrary<List<Action>> actions() {
        // Few distinct bytes, short keys: collisions, prefixes and both ends of the unsigned order are common.
        Arbitrary<byte[]> keys = Arbitraries.of((byte) 0x00, (byte) 0x01, (byte) 0x7F, (byte) 0x80, (byte) 0xFF)
                .list().ofMaxSize(3).map(StoreContractTest::toArray);
        Arbitrary<byte[]> values = Arbitraries.bytes().array(byte[].class).ofMaxSize(4);
        Arbitrary<Action> put = Combinators.combine(keys, values).as(Put::new);
        Arbitrary<Action> delete = keys.map(Delete::new);
        Arbitrary<Action> batch = Arbitraries.frequencyOf(
                Tuple.of(3, put), Tuple.of(1, delete))
                .list().ofMinSize(1).ofMaxSize(5).map(Batch::new);
        Arbitrary<byte[]> bound = Arbitraries.frequencyOf(
                Tuple.of(4, keys), Tuple.of(1, Arbitraries.just(null)));
        Arbitrary<Action> action = Arbitraries.frequencyOf(
                Tuple.of(6, put),
                Tuple.of(3, delete),
                Tuple.of(3, batch),
                Tuple.of(3, keys.map(Get::new)),
                Tuple.of(2, Combinators.combine(bound, bound).as(Scan::new)),
                Tuple.of(2, Combinators.combine(bound, bound).as(ScanDescending::new)),
                Tuple.of(1, Arbitraries.just(new TakeSnapshot())),
                Tuple.of(1, Arbitraries.just(new CheckAndCloseOldestSnapshot())));
        return action.list().ofMinSize(1).ofMaxSize(60);
    }

    /** Replays actions on a store and on a {@link TreeMap}, comparing every read. */
    private static final class ModelRun {
        private final Store store;
        private final TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        private final List<Map.Entry<Snapshot, TreeMap<byte[], byte[]>>> snapshots = new ArrayList<>();

        ModelRun(Store store) {
            this.store = store;
        }

        void run(List<Action> actions) {
            for (Action action : actions) {
                step(action);
            }
            assertThat(collect(store.scan(null, null))).containsExactlyElementsOf(entries(model));
            while (!snapshots.isEmpty()) {
                checkAndCloseOldest();
            }
        }

        private void step(Action action) {
            switch (action) {
                case Put p -> {
                    store.apply(new WriteBatch().put(p.key(), p.value()));
                    model.put(p.key(), p.value());
                }
                case Delete d -> {
                    store.apply(new WriteBatch().delete(d.key()));
                    model.remove(d.key());
                }
                case Batch b -> {
                    WriteBatch batch = new WriteBatch();
                    for (Action op : b.ops()) {
                        if (op instanceof Put p) {
                            batch.put(p.key(), p.value());
                            model.put(p.key(), p.value());
                        } else if (op instanceof Delete d) {
                            batch.delete(d.key());
                            model.remove(d.key());
                        }
                    }
                    store.apply(batch);
                }
                case Get g -> assertThat(store.get(g.key())).as("get %s", hex(g.key())).isEqualTo(model.get(g.key()));
                case Scan s -> assertThat(collect(store.scan(s.from(), s.to())))
                        .as("scan [%s, %s)", hex(s.from()), hex(s.to()))
                        .containsExactlyElementsOf(entries(range(model, s.from(), s.to())));
                case ScanDescending s -> assertThat(collect(store.scanDescending(s.from(), s.to())))
                        .as("descending scan [%s, %s)", hex(s.from()), hex(s.to()))
                        .containsExactlyElementsOf(reversed(entries(range(model, s.from(), s.to()))));
                case TakeSnapshot t -> snapshots.add(Map.entry(store.snapshot(), new TreeMap<>(model)));
                case CheckAndCloseOldestSnapshot c -> {
                    if (!snapshots.isEmpty()) {
                        checkAndCloseOldest();
                    }
                }
            }
        }

        private void checkAndCloseOldest() {
            Map.Entry<Snapshot, TreeMap<byte[], byte[]>> oldest = snapshots.remove(0);
            try (Snapshot s = oldest.getKey()) {
                assertThat(collect(s.scan(null, null))).containsExactlyElementsOf(entries(oldest.getValue()));
                assertThat(collect(s.scanDescending(null, null)))
                        .containsExactlyElementsOf(reversed(entries(oldest.getValue())));
                // A bounded descending scan of the snapshot too: from its second key to its last (both existing).
                List<byte[]> keys = new ArrayList<>(oldest.getValue().keySet());
                if (keys.size() >= 2) {
                    byte[] from = keys.get(1);
                    byte[] to = keys.get(keys.size() - 1);
                    assertThat(collect(s.scanDescending(from, to)))
                            .containsExactlyElementsOf(reversed(entries(range(oldest.getValue(), from, to))));
                }
                for (byte[] key : oldest.getValue().keySet()) {
                    assertThat(s.get(key)).isEqualTo(oldest.getValue().get(key));
                }
            }
        }
    }

    // ---- helpers

    record Entry(byte[] key, byte[] value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(key) * 31 + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return Bytes.hex(key) + "=" + Bytes.hex(value);
        }
    }

    static Entry entry(byte[] key, byte[] value) {
        return new Entry(key, value);
    }

    static List<Entry> collect(Cursor cursor) {
        List<Entry> out = new ArrayList<>();
        try (cursor) {
            while (cursor.next()) {
                out.add(new Entry(cursor.key(), cursor.value()));
            }
        }
        return out;
    }

    static List<Entry> scanAll(StoreReader reader) {
        return collect(reader.scan(null, null));
    }

    static List<String> keys(Cursor cursor) {
        return collect(cursor).stream().map(e -> Bytes.hex(e.key())).toList();
    }

    static List<Entry> entries(Map<byte[], byte[]> map) {
        return map.entrySet().stream().map(e -> new Entry(e.getKey(), e.getValue())).toList();
    }

    static List<Entry> reversed(List<Entry> entries) {
        List<Entry> out = new ArrayList<>(entries);
        Collections.reverse(out);
        return out;
    }

    static Map<byte[], byte[]> range(TreeMap<byte[], byte[]> model, byte[] from, byte[] to) {
        if (from != null && to != null && Bytes.compare(from, to) >= 0) {
            return Map.of();
        }
        if (from != null && to != null) {
            return model.subMap(from, true, to, false);
        }
        if (from != null) {
            return model.tailMap(from, true);
        }
        return to != null ? model.headMap(to, false) : model;
    }

    void put(byte[] key, byte[] value) {
        store.apply(new WriteBatch().put(key, value));
    }

    void delete(byte[] key) {
        store.apply(new WriteBatch().delete(key));
    }

    /** A 4-byte big-endian key, so numeric and byte order agree. */
    static byte[] k(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return out;
    }

    static String hex(byte[] bytes) {
        return Bytes.hex(bytes);
    }

    static byte[] toArray(List<Byte> list) {
        byte[] out = new byte[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    static byte[] account(int i) {
        return b('A', i);
    }

    static byte[] longBytes(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    static long asLong(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }

    static long sumOf(Cursor cursor, int expectedCount) {
        long sum = 0;
        int count = 0;
        try (cursor) {
            while (cursor.next()) {
                sum += asLong(cursor.value());
                count++;
            }
        }
        assertThat(count).isEqualTo(expectedCount);
        return sum;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    static Thread start(AtomicReference<Throwable> failure, ThrowingRunnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    static void join(Thread writer, List<Thread> others, AtomicReference<Throwable> failure)
            throws InterruptedException {
        if (writer != null) {
            writer.join(30_000);
        }
        for (Thread t : others) {
            t.join(30_000);
        }
        if (failure.get() != null) {
            throw new AssertionError("a concurrent thread failed", failure.get());
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
