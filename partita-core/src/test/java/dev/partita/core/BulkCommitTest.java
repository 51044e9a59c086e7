package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.item.BatchResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.ChangeRecord.Operation;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.core.store.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bulk request's operations on one physical partition commit as one store batch: each keeps its own status, etag
 * and LSN, one that fails takes back only its own writes, and the change feed, the size records and the LSN record
 * come out as if each had committed on its own (also after a restart on RocksDB).
 */
class BulkCommitTest {
    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T04:00:00Z"));

    /** Counts the store batches applied. */
    static final class CountingStore extends ForwardingStore {
        final AtomicInteger applied = new AtomicInteger();

        CountingStore(Store inner) {
            super(inner);
        }

        @Override
        public void apply(WriteBatch batch) {
            applied.incrementAndGet();
            super.apply(batch);
        }
    }

    private static ContainerInfo container(Engine engine, String extra, int partitions) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        return engine.createContainer("db", (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":"
                + "[\"/pk\"]}" + extra + "}", "test"), Throughput.NONE, partitions);
    }

    private static String op(String type, String pk, String id, String body) {
        return "{\"operationType\":\"" + type + "\",\"partitionKey\":\"[\\\"" + pk + "\\\"]\""
                + (id == null ? "" : ",\"id\":\"" + id + "\"") + (body == null ? "" : ",\"resourceBody\":" + body)
                + "}";
    }

    private static byte[] bulk(List<String> ops) {
        return ("[" + String.join(",", ops) + "]").getBytes(StandardCharsets.UTF_8);
    }

    private static List<ChangeRecord> changesAfter(Engine engine, long lsn) {
        return engine.container("db", "c").changeFeed(ChangeFeedStart.after(lsn),
                ChangeFeedMode.ALL_VERSIONS_AND_DELETES, RequestOptions.scoped(Scope.CONTAINER)).changes();
    }

    @Test
    void eachPhysicalPartitionsOperationsCommitAsOneStoreBatch() {
        CountingStore store = new CountingStore(new MemoryStore());
        try (Engine engine = Engine.open(store, clock, Limits.DEFAULTS)) {
            ContainerInfo c = container(engine, "", 2);
            List<String> first = new ArrayList<>();
            List<String> second = new ArrayList<>();
            for (int i = 0; first.size() < 20 || second.size() < 20; i++) {
                String pk = "k" + i;
                String range = KeyRoute.of(c.partitionKey(), c.partitions(),
                        PartitionKeyValue.fromHeader("[\"" + pk + "\"]"), Limits.DEFAULTS).range().id();
                List<String> side = range.equals(c.partitions().partitions().get(0).id()) ? first : second;
                if (side.size() < 20) {
                    side.add(op("Upsert", pk, null, "{\"id\":\"i" + i + "\",\"pk\":\"" + pk + "\"}"));
                }
            }
            List<String> ops = new ArrayList<>(first);
            ops.addAll(second);
            int before = store.applied.get();
            BatchResult r = engine.container("db", "c").bulk(bulk(ops), RequestOptions.NONE);
            assertThat(r.results()).hasSize(40).allSatisfy(o -> assertThat(o.status()).isEqualTo(201));
            assertThat(store.applied.get() - before).as("one store batch per physical partition").isEqualTo(2);
            assertThat(engine.container("db", "c").usage(RequestOptions.NONE).stored().items()).isEqualTo(40);
        }
    }

    @Test
    void aFailedOperationTakesBackOnlyItsOwnWrites() {
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS)) {
            container(engine, ",\"uniqueKeyPolicy\":{\"uniqueKeys\":[{\"paths\":[\"/a\"]},{\"paths\":[\"/b\"]}]}", 1);
            long start = engine.container("db", "c").changeFeed(ChangeFeedStart.now(),
                    ChangeFeedMode.ALL_VERSIONS_AND_DELETES, RequestOptions.scoped(Scope.CONTAINER)).headLsn();
            BatchResult r = engine.container("db", "c").bulk(bulk(List.of(
                    op("Create", "p", null, "{\"id\":\"x\",\"pk\":\"p\",\"a\":1,\"b\":1}"),
                    // fails on its second unique key after claiming its first: that claim must go with it
                    op("Create", "p", null, "{\"id\":\"y\",\"pk\":\"p\",\"a\":2,\"b\":1}"),
                    op("Create", "p", null, "{\"id\":\"y\",\"pk\":\"p\",\"a\":3,\"b\":3}"),
                    op("Create", "p", null, "{\"id\":\"z\",\"pk\":\"p\",\"a\":2,\"b\":4}"),
                    op("Create", "p", null, "{\"id\":\"x\",\"pk\":\"p\",\"a\":5,\"b\":5}"),
                    op("Upsert", "p", null, "{\"id\":\"w\",\"pk\":\"p\"}"),
                    op("Upsert", "p", null, "{\"id\":\"w\",\"pk\":\"p\",\"v\":2}"),
                    op("Replace", "p", "nope", "{\"id\":\"nope\",\"pk\":\"p\"}"),
                    op("Patch", "p", "x", "{\"operations\":[{\"op\":\"set\",\"path\":\"/n\",\"value\":1}]}"),
                    op("Read", "p", "w", null),
                    op("Delete", "p", "w", null))), RequestOptions.NONE);
            assertThat(r.results()).extracting(BatchResult.OpResult::status)
                    .containsExactly(201, 409, 201, 201, 409, 201, 200, 404, 200, 200, 204);

            List<ChangeRecord> fed = changesAfter(engine, start);
            assertThat(fed).extracting(ChangeRecord::operation).containsExactly(Operation.CREATE, Operation.CREATE,
                    Operation.CREATE, Operation.CREATE, Operation.REPLACE, Operation.REPLACE, Operation.DELETE);
            assertThat(fed).extracting(ChangeRecord::id).containsExactly("x", "y", "z", "w", "w", "x", "w");
            assertThat(fed).extracting(ChangeRecord::lsn).isSorted().doesNotHaveDuplicates();
            // each version's image, though later operations of the same request superseded w's and x's
            assertThat(fed.subList(0, 6)).extracting(ch -> Json.parse(ch.newImage(), "change").path("a").asInt() + "/"
                    + Json.parse(ch.newImage(), "change").path("v").asInt() + "/"
                    + Json.parse(ch.newImage(), "change").path("n").asInt())
                    .containsExactly("1/0/0", "3/0/0", "2/0/0", "0/0/0", "0/2/0", "1/0/1");
            assertThat(Json.parse(fed.get(6).previousImage(), "change").path("v").asInt()).isEqualTo(2);
            // each success's etag is the one its version is read with
            ContainerHandle h = engine.container("db", "c");
            RequestOptions atP = RequestOptions.of(PartitionKeyValue.fromHeader("[\"p\"]"));
            assertThat(r.results().get(8).etag()).isEqualTo(h.read("x", atP).etag());
            assertThat(r.results().get(3).etag()).isEqualTo(h.read("z", atP).etag());
            assertThat(h.usage(RequestOptions.NONE).stored().items()).isEqualTo(3);
            assertThat(r.lsn()).isEqualTo(fed.get(fed.size() - 1).lsn());
            long next = h.create("{\"id\":\"after\",\"pk\":\"p\",\"a\":9,\"b\":9}".getBytes(StandardCharsets.UTF_8),
                    RequestOptions.NONE).lsn();
            assertThat(next).isGreaterThan(r.lsn());
            assertThat(changesAfter(engine, r.lsn())).extracting(ChangeRecord::lsn).containsExactly(next);
        }
    }

    /** Bytes in, bytes out: a bulk or batch write stores the item as the client sent it, as a point write does. */
    @Test
    void aBulkOrBatchWriteStoresTheItemsBytesAsSent() {
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS)) {
            container(engine, "", 1);
            ContainerHandle h = engine.container("db", "c");
            RequestOptions atP = RequestOptions.of(PartitionKeyValue.fromHeader("[\"p\"]"));
            String item = "{\"id\":\"%s\", \"pk\":\"p\",\"price\":1.50,\"name\":\"caf\\u00e9\"}";
            h.create(String.format(item, "point").getBytes(StandardCharsets.UTF_8), atP);
            BatchResult bulk = h.bulk(bulk(List.of(op("Upsert", "p", null, String.format(item, "bulk")),
                    op("Create", "p", null, String.format(item, "replaced")),
                    op("Replace", "p", "replaced", String.format(item, "replaced").replace("1.50", "2.50")))),
                    RequestOptions.NONE);
            assertThat(bulk.results()).extracting(BatchResult.OpResult::status).containsExactly(201, 201, 200);
            byte[] batch = ("[{\"operationType\":\"Create\",\"resourceBody\":" + String.format(item, "batch")
                    + "}]").getBytes(StandardCharsets.UTF_8);
            assertThat(h.batch(batch, atP).allSucceeded()).isTrue();
            String point = h.read("point", atP).item().jsonString();
            assertThat(point).startsWith(String.format(item, "point").replace("}", ","));
            for (String id : List.of("bulk", "batch")) {
                assertThat(h.read(id, atP).item().jsonString()).as(id)
                        .startsWith(String.format(item, id).replace("}", ","));
            }
            assertThat(h.read("replaced", atP).item().jsonString())
                    .startsWith(String.format(item, "replaced").replace("1.50", "2.50").replace("}", ","));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "rocks"})
    void aBulkCommittedInOneBatchIsWhollyThereAfterARestart(String kind) {
        Path dir = tmp.resolve("db");
        Store store = kind.equals("rocks") ? RocksStore.open(dir) : new MemoryStore();
        long lastLsn;
        try (Engine engine = Engine.open(store, clock, Limits.DEFAULTS)) {
            container(engine, "", 1);
            List<String> ops = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                ops.add(op("Create", "k" + i % 7, null, "{\"id\":\"i" + i + "\",\"pk\":\"k" + i % 7 + "\"}"));
            }
            ops.add(op("Create", "k0", null, "{\"id\":\"i0\",\"pk\":\"k0\"}"));
            BatchResult r = engine.container("db", "c").bulk(bulk(ops), RequestOptions.NONE);
            assertThat(r.results().get(50).status()).isEqualTo(409);
            lastLsn = r.lsn();
            if (kind.equals("memory")) {
                assertThat(changesAfter(engine, 0)).hasSize(50);
                return;
            }
        }
        try (Engine engine = Engine.open(RocksStore.open(dir), clock, Limits.DEFAULTS)) {
            ContainerHandle h = engine.container("db", "c");
            assertThat(h.usage(RequestOptions.NONE).stored().items()).isEqualTo(50);
            assertThat(changesAfter(engine, 0)).hasSize(50).extracting(ChangeRecord::lsn).isSorted()
                    .last().isEqualTo(lastLsn);
            long next = h.create("{\"id\":\"after\",\"pk\":\"k1\"}".getBytes(StandardCharsets.UTF_8),
                    RequestOptions.NONE).lsn();
            assertThat(next).isGreaterThan(lastLsn);
            assertThat(changesAfter(engine, lastLsn)).extracting(ChangeRecord::lsn).containsExactly(next);
        }
    }
}
