package dev.partita.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.PartitionBudget;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.item.ItemResult;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.ChangeRecord;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting every item of a partition key: gone at once for point reads, queries, the change feed and re-creates, then
 * removed in the background within the partition's share of throughput, and durable across a restart.
 */
class PartitionKeyDeleteTest {
    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    Engine engine;
    ContainerInfo c;

    @BeforeEach
    void open() {
        engine = Engine.open(RocksStore.open(dir), clock, Limits.DEFAULTS);
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        c = engine.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.manual(400), 0);
        for (int i = 0; i < 20; i++) {
            create("{\"id\":\"a" + i + "\",\"pk\":\"a\",\"n\":" + i + ",\"pad\":\"" + "x".repeat(900) + "\"}");
        }
        create("{\"id\":\"b1\",\"pk\":\"b\",\"n\":100}");
        create("{\"id\":\"b2\",\"pk\":\"b\",\"n\":101}");
    }

    @AfterEach
    void close() {
        engine.close();
    }

    static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test");
    }

    ContainerHandle items() {
        return engine.container("db", "c");
    }

    ItemResult create(String body) {
        return items().create(body.getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
    }

    static RequestOptions key(String header) {
        return RequestOptions.of(PartitionKeyValue.fromHeader(header));
    }

    List<String> ids(String query, RequestOptions o) {
        List<String> out = new ArrayList<>();
        for (JsonNode row : items().query(query, Map.of(), o).rows()) {
            out.add(row.isTextual() ? row.asText() : row.get("id").asText());
        }
        return out;
    }

    long storedItems() {
        byte[][] r = StoreKeys.containerItems(c.containerId());
        long n = 0;
        try (Cursor cur = engine.store().scan(r[0], r[1])) {
            while (cur.next()) {
                n++;
            }
        }
        return n;
    }

    List<ChangeRecord> changeLog() {
        List<ChangeRecord> out = new ArrayList<>();
        try (Cursor cur = engine.store().scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
            while (cur.next()) {
                out.add(ChangeRecord.decode(cur.value()));
            }
        }
        return out;
    }

    int removeAll() {
        int removed = 0;
        for (int run = 0; run < 100; run++) {
            int n = engine.removeDeletedItems();
            if (n == 0) {
                break;
            }
            removed += n;
            clock.advance(Limits.DEFAULTS.ttlSweepInterval());
        }
        return removed;
    }

    @Test
    void theItemsAreGoneAtOnceForReadsQueriesAndTheChangeFeed() {
        ItemResult r = items().deleteAllItemsByPartitionKey(key("[\"a\"]"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.requestCharge()).isPositive();
        assertThatThrownBy(() -> items().read("a3", key("[\"a\"]"))).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThat(ids("SELECT * FROM c", key("[\"a\"]").withScope(Scope.partitionKey(pk("[\"a\"]"))))).isEmpty();
        assertThat(ids("SELECT * FROM c", RequestOptions.NONE)).containsExactlyInAnyOrder("b1", "b2");
        assertThat(ids("SELECT VALUE c.id FROM c ORDER BY c.n DESC", RequestOptions.NONE))
                .containsExactly("b2", "b1");
        assertThat(items().query("SELECT VALUE COUNT(1) FROM c", Map.of(), RequestOptions.NONE).rows().get(0)
                .asInt()).isEqualTo(2);
        assertThat(items().query("SELECT * FROM c WHERE c.n = 3", Map.of(), RequestOptions.NONE).rows()).isEmpty();
        assertThat(items().changeFeed(ChangeFeedStart.beginning(), ChangeFeedMode.LATEST_VERSION,
                RequestOptions.NONE).changes()).extracting(ChangeRecord::id).containsExactly("b1", "b2");
        // nothing was removed yet: only the request was recorded
        assertThat(storedItems()).isEqualTo(22);
    }

    @Test
    void anIdCanBeWrittenAgainAtOnceAndOnlyTheOldVersionsAreRemoved() {
        items().deleteAllItemsByPartitionKey(key("[\"a\"]"));
        assertThat(create("{\"id\":\"a1\",\"pk\":\"a\",\"v\":\"new\"}").status()).isEqualTo(201);
        assertThat(items().upsert("{\"id\":\"a2\",\"pk\":\"a\"}".getBytes(StandardCharsets.UTF_8),
                RequestOptions.NONE).status()).isEqualTo(201);
        assertThatThrownBy(() -> items().replace("a3", "{\"id\":\"a3\",\"pk\":\"a\"}".getBytes(StandardCharsets.UTF_8),
                key("[\"a\"]"))).isInstanceOfSatisfying(ServiceException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
        assertThatThrownBy(() -> items().delete("a4", key("[\"a\"]"))).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        // the re-created id's old version is logged as deleted before its new version
        List<ChangeRecord> log = changeLog();
        ChangeRecord removedOld = log.get(log.size() - 4);
        assertThat(removedOld.operation()).isEqualTo(ChangeRecord.Operation.DELETE);
        assertThat(removedOld.id()).isEqualTo("a1");
        assertThat(log.get(log.size() - 3).operation()).isEqualTo(ChangeRecord.Operation.CREATE);

        assertThat(removeAll()).isEqualTo(18);
        assertThat(storedItems()).isEqualTo(4);
        assertThat(ids("SELECT * FROM c", RequestOptions.NONE)).containsExactlyInAnyOrder("a1", "a2", "b1", "b2");
        assertThat(Json.parse(items().read("a1", key("[\"a\"]")).item().json(), "t").get("v").asText())
                .isEqualTo("new");
        assertThat(pendingDeletes()).isZero();
    }

    @Test
    void theBackgroundSpendsAtMostItsShareOfThePartitionsThroughput() {
        items().deleteAllItemsByPartitionKey(key("[\"a\"]"));
        PartitionBudget budget = engine.capacity().budget(c, "0");
        double before = budget.usedThisWindow(clock.millis());
        int first = engine.removeDeletedItems();
        double spent = budget.usedThisWindow(clock.millis()) - before;
        // 10% of 400 RU/s over a one-second run: 40 RU, the last delete may go a little over
        assertThat(first).isPositive().isLessThan(20);
        assertThat(spent).isGreaterThanOrEqualTo(40).isLessThan(40 + 20);
        assertThat(engine.removeDeletedItems()).as("the same second's share is spent").isZero();
        clock.advance(Limits.DEFAULTS.ttlSweepInterval());
        assertThat(removeAll() + first).isEqualTo(20);
        assertThat(storedItems()).isEqualTo(2);
        assertThat(changeLog().stream().filter(r -> r.operation() == ChangeRecord.Operation.DELETE)).hasSize(20);
        assertThat(pendingDeletes()).isZero();
    }

    @Test
    void aHierarchicalKeyNeedsEveryLevel() {
        ContainerInfo h = engine.createContainer("db", json("{\"id\":\"h\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\"],"
                + "\"kind\":\"MultiHash\",\"version\":2}}"), Throughput.NONE, 0);
        ContainerHandle hs = engine.container(h);
        hs.create("{\"id\":\"1\",\"t\":\"t1\",\"u\":\"u1\"}".getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        hs.create("{\"id\":\"2\",\"t\":\"t1\"}".getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        assertThatThrownBy(() -> hs.deleteAllItemsByPartitionKey(key("[\"t1\"]")))
                .isInstanceOfSatisfying(ServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.subStatus()).isEqualTo(SubStatus.PARTITION_KEY_MISMATCH);
                });
        assertThat(hs.deleteAllItemsByPartitionKey(key("[\"t1\",{}]")).status()).isEqualTo(200);
        assertThat(hs.read("1", key("[\"t1\",\"u1\"]")).status()).isEqualTo(200);
        assertThatThrownBy(() -> hs.read("2", key("[\"t1\",{}]"))).isInstanceOf(ServiceException.class);
    }

    @Test
    void aPendingDeleteSurvivesARestartAndALaterDeleteCoversLaterItems() {
        items().deleteAllItemsByPartitionKey(key("[\"a\"]"));
        create("{\"id\":\"late\",\"pk\":\"a\"}");
        engine.close();
        engine = Engine.open(RocksStore.open(dir), clock, Limits.DEFAULTS);
        assertThat(ids("SELECT * FROM c", RequestOptions.NONE)).containsExactlyInAnyOrder("late", "b1", "b2");
        items().deleteAllItemsByPartitionKey(key("[\"a\"]"));
        assertThat(ids("SELECT * FROM c", RequestOptions.NONE)).containsExactlyInAnyOrder("b1", "b2");
        assertThat(removeAll()).isEqualTo(21);
        assertThat(storedItems()).isEqualTo(2);
        assertThat(pendingDeletes()).isZero();
    }

    static PartitionKeyValue pk(String header) {
        return PartitionKeyValue.fromHeader(header);
    }

    long pendingDeletes() {
        byte[][] r = StoreKeys.partitionDeletes(c.containerId());
        long n = 0;
        try (Cursor cur = engine.store().scan(r[0], r[1])) {
            while (cur.next()) {
                n++;
            }
        }
        return n;
    }
}
