package dev.partita.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.TickingClock;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index walks that load no item are bounded by the request's deadline: a string function's walk over many terms it
 * is false for, and a lookup's walk over entries of other physical partitions. The clock moves one millisecond per
 * read, so with a 20 ms budget a page reads the clock a few times and then must stop, with a continuation that
 * resumes the walk where it stopped; draining the pages gives exactly the rows of an unbounded read.
 */
class BoundedIndexWalkTest {
    static final int TERMS = 300;
    static final Duration BUDGET = Duration.ofMillis(20);

    @Test
    void aStringFunctionsWalkOverFailingTermsStopsAtTheDeadline(@TempDir Path dir) {
        walkStopsAtTheDeadline(new MemoryStore());
        walkStopsAtTheDeadline(RocksStore.open(dir));
    }

    private static void walkStopsAtTheDeadline(Store store) {
        TickingClock clock = new TickingClock(QueryExecutorTest.CLOCK.instant(), false);
        try (Engine engine = Engine.open(store, clock, Limits.DEFAULTS.toBuilder().maxRequestExecution(BUDGET)
                .build())) {
            load(engine, 1);
            clock.start();
            String query = "SELECT VALUE c.id FROM c WHERE CONTAINS(c.s, 'needle')";
            QueryPage first = page(engine, "0", query, null);
            assertThat(first.rows()).as("the walk stopped before the one matching term").isEmpty();
            assertThat(first.continuation()).isNotNull();
            assertThat(first.work().indexEntriesRead()).isLessThan(TERMS / 2);
            assertThat(drain(engine, "0", query)).containsExactly("needle");
            assertThatThrownBy(() -> page(engine, "0",
                    "SELECT DISTINCT VALUE c.k FROM c WHERE CONTAINS(c.s, 'needle')", null)).as("the candidates of a query evaluated whole are gathered before any item is read")
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(408));
        }
    }

    /**
     * Every item has the same value at /k: range 1's entries of that term follow range 0's, so a lookup on range 1
     * passes over every entry of range 0 first, loading none of their items.
     */
    @Test
    void aLookupsWalkOverOtherPartitionsEntriesStopsAtTheDeadline() {
        TickingClock clock = new TickingClock(QueryExecutorTest.CLOCK.instant(), false);
        try (Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS.toBuilder()
                .maxRequestExecution(BUDGET).build())) {
            load(engine, 2);
            ContainerInfo c = engine.readContainer("db", "c");
            String range = c.partitions().partitions().get(1).id();
            String query = "SELECT VALUE c.id FROM c WHERE c.k = 1";
            List<String> expected = drain(engine, range, query);
            assertThat(expected).isNotEmpty();
            clock.start();
            QueryPage first = page(engine, range, query, null);
            assertThat(first.rows()).as("the walk stopped in range 0's entries").isEmpty();
            assertThat(first.continuation()).isNotNull();
            assertThat(drain(engine, range, query)).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * ORDER BY read through the index on one partition key: the terms of every other partition key's items are
     * passed over without loading an item, so the deadline ends the read between groups too, and the continuation
     * resumes at the next term; ascending and descending, the one item of the key comes back once.
     */
    @Test
    void anOrderedReadOverOtherKeysTermsStopsAtTheDeadline(@TempDir Path dir) {
        orderedWalkStopsAtTheDeadline(new MemoryStore());
        orderedWalkStopsAtTheDeadline(RocksStore.open(dir));
    }

    private static void orderedWalkStopsAtTheDeadline(Store store) {
        TickingClock clock = new TickingClock(QueryExecutorTest.CLOCK.instant(), false);
        try (Engine engine = Engine.open(store, clock, Limits.DEFAULTS.toBuilder().maxRequestExecution(BUDGET)
                .build())) {
            load(engine, 1);
            create(engine, "{\"id\":\"first\",\"pk\":\"pn\",\"n\":-1}");
            for (int i = 0; i < TERMS; i++) {
                create(engine, "{\"id\":\"n" + i + "\",\"pk\":\"q" + i + "\",\"n\":" + i + "}");
            }
            create(engine, "{\"id\":\"last\",\"pk\":\"pn\",\"n\":" + TERMS + "}");
            clock.start();
            QueryExecutorTest.buildNonScalars(engine, "SELECT VALUE c.id FROM c ORDER BY c.n",
                    Scope.partitionKey(PartitionKeyValue.fromHeader("[\"pn\"]")));
            for (String order : List.of("ASC", "DESC")) {
                String query = "SELECT VALUE c.id FROM c WHERE IS_DEFINED(c.n) ORDER BY c.n " + order;
                List<String> ids = new ArrayList<>();
                String token = null;
                int pages = 0;
                do {
                    QueryPage p = engine.container("db", "c").query(query, Map.of(), RequestOptions.scoped(
                            Scope.partitionKey(PartitionKeyValue.fromHeader("[\"pn\"]")))
                            .withContinuation(token).withMaxItemCount(1000));
                    p.rows().forEach(r -> ids.add(r.asText()));
                    token = p.continuation();
                    pages++;
                } while (token != null && pages < 10 * TERMS);
                assertThat(ids).as(order).containsExactly(order.equals("ASC") ? new String[] {"first", "last"}
                        : new String[] {"last", "first"});
                assertThat(pages).as("the walk between the two items was cut").isGreaterThan(2);
            }
        }
    }

    private static void load(Engine engine, int ranges) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        engine.createContainer("db", (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}",
                "t"), Throughput.NONE, ranges);
        for (int i = 0; i < TERMS; i++) {
            // distinct strings, in index order before the one that matches
            create(engine, "{\"id\":\"i" + i + "\",\"pk\":\"p" + i + "\",\"k\":1,\"s\":\"w" + (1000 + i) + "\"}");
        }
        create(engine, "{\"id\":\"needle\",\"pk\":\"pn\",\"k\":1,\"s\":\"zz needle\"}");
    }

    private static void create(Engine engine, String doc) {
        engine.container("db", "c").create(doc.getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
    }

    private static QueryPage page(Engine engine, String range, String query, String token) {
        return engine.container("db", "c").query(query, Map.of(),
                RequestOptions.scoped(Scope.range(range)).withContinuation(token).withMaxItemCount(1000));
    }

    private static List<String> drain(Engine engine, String range, String query) {
        List<String> ids = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            QueryPage p = page(engine, range, query, token);
            p.rows().forEach(r -> ids.add(r.asText()));
            token = p.continuation();
            assertThat(++pages).isLessThan(10 * TERMS);
        } while (token != null);
        return ids;
    }
}
