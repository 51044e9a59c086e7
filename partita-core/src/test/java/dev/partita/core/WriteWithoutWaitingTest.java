package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.item.ItemResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.ForwardingStore;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ContainerHandle#writeWithoutWaiting}, the create or upsert the server answers on its event loop: when it
 * answers, its answer, charge and refusals are {@link ContainerHandle#create}'s (or upsert's); it gives up, having
 * spent and written nothing, on a store that writes to disk, under a fault rule, for a request naming no partition
 * key, and while another write holds the partition's writer.
 */
class WriteWithoutWaitingTest {
    private static final RequestOptions AT_A = RequestOptions.of(PartitionKeyValue.fromHeader("[\"a\"]"));

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T04:00:00Z"));

    private static ContainerHandle container(Engine engine) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        ObjectNode body = Json.object().put("id", "c");
        body.set("partitionKey", Json.object().set("paths", Json.NODES.arrayNode().add("/pk")));
        engine.createContainer("db", body, Throughput.NONE, 0);
        return engine.container("db", "c");
    }

    private static byte[] item(String id, String pad) {
        return ("{\"id\":\"" + id + "\",\"pk\":\"a\",\"pad\":\"" + pad + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static ServiceException refusal(Supplier<ItemResult> write) {
        return catchThrowableOfType(ServiceException.class, write::get);
    }

    private static long stored(ContainerHandle h) {
        return h.usage(RequestOptions.NONE).stored().items();
    }

    @Test
    void onTheMemoryStoreItAnswersAsCreateAndUpsertDo() {
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS)) {
            ContainerHandle h = container(engine);
            ItemResult now = h.writeWithoutWaiting(item("x", "1234"), false, AT_A);
            ItemResult created = h.create(item("y", "5678"), AT_A);
            assertThat(now.status()).isEqualTo(201);
            assertThat(now.requestCharge()).isEqualTo(created.requestCharge()).isPositive();
            assertThat(now.lsn()).isLessThan(created.lsn());
            assertThat(h.read("x", AT_A).etag()).isEqualTo(now.etag());
            assertThat(Json.parse(h.read("x", AT_A).item().json(), "t").get("pad").asText()).isEqualTo("1234");

            ServiceException conflictNow = refusal(() -> h.writeWithoutWaiting(item("x", "1"), false, AT_A));
            ServiceException conflict = refusal(() -> h.create(item("x", "1"), AT_A));
            assertThat(conflictNow.status()).isEqualTo(409);
            assertThat(conflictNow.requestCharge()).isEqualTo(conflict.requestCharge());

            ItemResult upserted = h.writeWithoutWaiting(item("x", "abcd"), true, AT_A);
            assertThat(upserted.status()).isEqualTo(200);
            assertThat(upserted.requestCharge()).isEqualTo(h.upsert(item("y", "efgh"), AT_A).requestCharge());
            assertThat(stored(h)).isEqualTo(2);
        }
    }

    @Test
    void itGivesUpOnDiskUnderAFaultRuleAndWithoutAPartitionKey() {
        try (Engine engine = Engine.open(RocksStore.open(tmp.resolve("db")), clock, Limits.DEFAULTS)) {
            ContainerHandle h = container(engine);
            assertThat(h.writeWithoutWaiting(item("x", ""), false, AT_A)).isNull();
            assertThat(stored(h)).isZero();
        }
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS)) {
            ContainerHandle h = container(engine);
            assertThat(h.writeWithoutWaiting(item("x", ""), false, RequestOptions.NONE)).isNull();
            engine.faults().add(new FaultRule(FaultRule.Kind.THROTTLE, "db/c", null, 1, 1, Duration.ofMillis(7)));
            assertThat(h.writeWithoutWaiting(item("x", ""), false, AT_A)).isNull();
            assertThat(stored(h)).isZero();
            // the rule did not fire for the write that gave up: the create that follows meets it
            assertThat(refusal(() -> h.create(item("x", ""), AT_A)).status()).isEqualTo(429);
        }
    }

    /** A memory store whose read of one key waits (inside the writer of the write that reads it) until released. */
    static final class HeldStore extends ForwardingStore {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile String heldId;

        HeldStore() {
            super(new MemoryStore());
        }

        @Override
        public boolean readsNeverBlock() {
            return true;
        }

        @Override
        public byte[] get(byte[] key) {
            String id = heldId;
            if (id != null && new String(key, StandardCharsets.ISO_8859_1).endsWith(id)) {
                reached.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.get(key);
        }
    }

    @Test
    void itGivesUpWhileAnotherWriteHoldsThePartitionsWriter() throws Exception {
        HeldStore store = new HeldStore();
        try (Engine engine = Engine.open(store, clock, Limits.DEFAULTS)) {
            ContainerHandle h = container(engine);
            store.heldId = "held-item";
            CompletableFuture<ItemResult> held = CompletableFuture.supplyAsync(
                    () -> h.create(item("held-item", ""), AT_A));
            assertThat(store.reached.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(h.writeWithoutWaiting(item("x", ""), false, AT_A)).isNull();
            store.heldId = null;
            store.release.countDown();
            assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
            assertThat(stored(h)).isEqualTo(1);
            assertThat(h.writeWithoutWaiting(item("x", ""), false, AT_A).status()).isEqualTo(201);
        }
    }
}
