package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.ItemResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One writer per physical partition: writes to different physical partitions run at the same time, writes to one
 * partition one at a time, and under concurrent writers the change feed still sees every change exactly once, in LSN
 * order, per range.
 */
class ParallelWritersTest {
    final GatedStore store = new GatedStore(new MemoryStore());
    Engine engine;
    ContainerInfo c;

    @AfterEach
    void close() {
        engine.close();
    }

    void open(int partitions, Limits limits) {
        engine = Engine.open(store, Clock.systemUTC(), limits);
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        c = engine.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.NONE, partitions);
    }

    @Test
    void writesToDifferentPhysicalPartitionsOverlap() throws Exception {
        open(2, Limits.DEFAULTS);
        String[] keys = keysIn(List.of(range(0), range(1)));
        boolean[] overlapped = writeBothThroughGate(keys, 5_000);
        assertThat(overlapped).as("each write waited at the gate until the other partition's write reached it")
                .containsExactly(true, true);
    }

    @Test
    void writesToOnePhysicalPartitionRunOneAtATime() throws Exception {
        open(2, Limits.DEFAULTS);
        String[] keys = keysIn(List.of(range(0), range(0)));
        boolean[] overlapped = writeBothThroughGate(keys, 300);
        assertThat(overlapped).as("the first write reached the gate alone").contains(false);
    }

    /**
     * Creates one item in each of the two logical partitions {@code keys}, each on its own thread; the reads of the
     * items' keys wait at a two-party gate. Returns, per write, whether the other write reached the gate in time.
     */
    boolean[] writeBothThroughGate(String[] keys, long waitMillis) throws Exception {
        CountDownLatch gate = new CountDownLatch(2);
        Map<String, Boolean> passed = new ConcurrentHashMap<>();
        for (String k : keys) {
            store.gates.put(ByteKey.of(StoreKeys.item(c.containerId(), epk(k), "item-" + k)), () -> {
                gate.countDown();
                try {
                    passed.put(k, gate.await(waitMillis, TimeUnit.MILLISECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<ItemResult>> writes = new ArrayList<>();
            for (String k : keys) {
                writes.add(pool.submit(() -> create(k, "item-" + k)));
            }
            for (Future<ItemResult> w : writes) {
                assertThat(w.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
            }
        }
        return new boolean[] {passed.get(keys[0]), passed.get(keys[1])};
    }

    @Test
    void changeFeedSeesEveryChangeOnceInLsnOrderUnderConcurrentWriters() throws Exception {
        // small items, so that a large one fails after it took its LSN: the LSN is a gap the feed must pass over
        open(5, Limits.DEFAULTS.toBuilder().maxItemBytes(2_000).build());
        store.jitter = true;
        List<PhysicalPartition> ranges = c.partitions().partitions();
        Map<String, Long> continuations = new HashMap<>();
        for (PhysicalPartition p : ranges) {
            continuations.put(p.id(), engine.container(c).changeFeed(ChangeFeedStart.now(),
                    ChangeFeedMode.ALL_VERSIONS_AND_DELETES, RequestOptions.scoped(Scope.range(p.id()))).headLsn());
        }
        Map<String, List<Long>> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        Map<String, List<ChangeRecord>> seen = new HashMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        writeAndReadBack(thread, i, acknowledged);
                    }
                    return null;
                }));
            }
            Future<?> reader = pool.submit(() -> {
                boolean last = false;
                while (!last) {
                    last = !writing.get(); // one more round after the writers are done
                    for (PhysicalPartition p : ranges) {
                        poll(p.id(), continuations, seen);
                    }
                }
                return null;
            });
            for (Future<?> w : writers) {
                w.get(120, TimeUnit.SECONDS);
            }
            writing.set(false);
            reader.get(120, TimeUnit.SECONDS);
        }
        Map<String, List<Long>> expected = new HashMap<>();
        acknowledged.forEach((id, lsns) -> expected.put(id, List.copyOf(lsns)));
        Map<String, List<Long>> fed = new HashMap<>();
        for (Map.Entry<String, List<ChangeRecord>> e : seen.entrySet()) {
            List<Long> lsns = e.getValue().stream().map(ChangeRecord::lsn).toList();
            assertThat(lsns).as("range %s in LSN order, each once", e.getKey()).isSorted().doesNotHaveDuplicates();
            for (ChangeRecord r : e.getValue()) {
                assertThat(c.partitions().route(r.epk()).id()).isEqualTo(e.getKey());
                fed.computeIfAbsent(r.id(), id -> new ArrayList<>()).add(r.lsn());
            }
        }
        List<String> missed = new ArrayList<>();
        expected.forEach((id, lsns) -> {
            if (!lsns.equals(fed.get(id))) {
                missed.add(id + " wrote " + lsns + ", fed " + fed.get(id));
            }
        });
        assertThat(missed).as("writes the feed missed (of %d)", expected.size()).isEmpty();
        assertThat(fed.keySet()).as("nothing but acknowledged writes").isEqualTo(expected.keySet());
    }

    @Test
    void aSplitWaitsForTheWritesRunningAndWritesGoOnInTheChildren() throws Exception {
        open(2, Limits.DEFAULTS);
        String k = keysIn(List.of(range(0)))[0];
        CountDownLatch staging = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        store.gates.put(ByteKey.of(StoreKeys.item(c.containerId(), epk(k), "held")), () -> {
            staging.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long before = engine.container(c).changeFeed(ChangeFeedStart.now(), ChangeFeedMode.ALL_VERSIONS_AND_DELETES,
                RequestOptions.scoped(Scope.CONTAINER)).headLsn();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            Future<ItemResult> held = pool.submit(() -> create(k, "held"));
            assertThat(staging.await(30, TimeUnit.SECONDS)).isTrue();
            Future<ContainerInfo> split = pool.submit(() -> engine.split(c, range(0).id()));
            Future<List<ItemResult>> others = pool.submit(() -> {
                List<ItemResult> done = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    done.add(create("s" + i, "other-" + i));
                }
                return done;
            });
            Thread.sleep(300);
            assertThat(split.isDone()).as("the split waits for the write staging in the partition").isFalse();
            release.countDown();
            assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
            ContainerInfo after = split.get(30, TimeUnit.SECONDS);
            assertThat(after.partitions().partitions()).hasSize(3);
            List<Long> written = new ArrayList<>(List.of(held.get().lsn()));
            others.get(60, TimeUnit.SECONDS).forEach(r -> written.add(r.lsn()));
            for (int i = 0; i < 20; i++) {
                written.add(create("s" + i, "later-" + i).lsn());
            }
            List<Long> fed = engine.container(c).changeFeed(ChangeFeedStart.after(before),
                    ChangeFeedMode.ALL_VERSIONS_AND_DELETES, RequestOptions.scoped(Scope.CONTAINER)).changes()
                    .stream().map(ChangeRecord::lsn).toList();
            assertThat(fed).isSorted().containsExactlyInAnyOrderElementsOf(written);
        }
    }

    /** A create, an upsert and (every 10th) a write too large to store; reads each acknowledged write back. */
    private void writeAndReadBack(int thread, int i, Map<String, List<Long>> acknowledged) {
        String pk = "k" + ThreadLocalRandom.current().nextInt(40);
        String id = "t" + thread + "-" + i;
        List<Long> lsns = new ArrayList<>();
        ItemResult created = create(pk, id);
        lsns.add(created.lsn());
        readBack(pk, id, created);
        ItemResult upserted = engine.container(c).upsert(body(pk, id, "\"v\":2"), key(pk));
        lsns.add(upserted.lsn());
        readBack(pk, id, upserted);
        if (i % 10 == 0) {
            try {
                engine.container(c).upsert(body(pk, id, "\"pad\":\"" + "x".repeat(3_000) + "\""), key(pk));
                throw new AssertionError("an item over the limit was stored");
            } catch (ServiceException tooLarge) {
                assertThat(tooLarge.status()).isEqualTo(413);
            }
        }
        acknowledged.put(id, lsns);
    }

    /** A read with the write's session token sees the write, and its session token does not go back. */
    private void readBack(String pk, String id, ItemResult written) {
        ItemResult read = engine.container(c).read(id, key(pk).withSessionToken(written.sessionToken()));
        assertThat(read.etag()).isEqualTo(written.etag());
        assertThat(read.lsn()).isGreaterThanOrEqualTo(written.lsn());
    }

    private void poll(String rangeId, Map<String, Long> continuations, Map<String, List<ChangeRecord>> seen) {
        ChangeFeedPage page = engine.container(c).changeFeed(ChangeFeedStart.after(continuations.get(rangeId)),
                ChangeFeedMode.ALL_VERSIONS_AND_DELETES, RequestOptions.scoped(Scope.range(rangeId)));
        seen.computeIfAbsent(rangeId, r -> new ArrayList<>()).addAll(page.changes());
        assertThat(page.continuationLsn()).isGreaterThanOrEqualTo(continuations.get(rangeId));
        continuations.put(rangeId, page.continuationLsn());
    }

    // ---- helpers

    PhysicalPartition range(int i) {
        return c.partitions().partitions().get(i);
    }

    /** A distinct partition key value in each of the given ranges, in order. */
    String[] keysIn(List<PhysicalPartition> ranges) {
        String[] keys = new String[ranges.size()];
        Set<String> taken = new java.util.HashSet<>();
        for (int i = 0; i < ranges.size(); i++) {
            for (int n = 0; keys[i] == null; n++) {
                String k = "key-" + n;
                if (!taken.contains(k) && c.partitions().route(epk(k)).id().equals(ranges.get(i).id())) {
                    keys[i] = k;
                    taken.add(k);
                }
            }
        }
        return keys;
    }

    String epk(String pk) {
        return KeyRoute.of(c.partitionKey(), c.partitions(), PartitionKeyValue.fromHeader("[\"" + pk + "\"]"),
                Limits.DEFAULTS).epk();
    }

    ItemResult create(String pk, String id) {
        return engine.container(c).create(body(pk, id, "\"v\":1"), key(pk));
    }

    static byte[] body(String pk, String id, String more) {
        return ("{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\"," + more + "}").getBytes(StandardCharsets.UTF_8);
    }

    static RequestOptions key(String pk) {
        return RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]"));
    }

    static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test");
    }

    record ByteKey(byte[] bytes) {
        static ByteKey of(byte[] b) {
            return new ByteKey(b);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ByteKey k && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /**
     * A store whose point reads of chosen keys run a gate first (once each), and that may pause a little at random in
     * reads and writes so that concurrent transactions commit out of LSN order.
     */
    static final class GatedStore extends ForwardingStore {
        final Map<ByteKey, Runnable> gates = new ConcurrentHashMap<>();
        volatile boolean jitter;

        GatedStore(Store inner) {
            super(inner);
        }

        @Override
        public byte[] get(byte[] key) {
            Runnable gate = gates.isEmpty() ? null : gates.remove(ByteKey.of(key));
            if (gate != null) {
                gate.run();
            }
            pause();
            return inner.get(key);
        }

        @Override
        public void apply(WriteBatch batch) {
            pause();
            super.apply(batch);
        }

        private void pause() {
            if (jitter && ThreadLocalRandom.current().nextInt(8) == 0) {
                try {
                    Thread.sleep(0, ThreadLocalRandom.current().nextInt(500_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
