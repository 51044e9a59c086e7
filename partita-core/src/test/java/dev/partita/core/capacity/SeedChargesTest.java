package dev.partita.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.MutableClock;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.query.QueryPage;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's charges on real documents through the engine (the work it records, priced), within ±10% of the record:
 * a vehicle written under the nine-path policy costs 8.84 RU, under "index everything" 1.8x that, and a page that
 * evaluates CONTAINS on every item it scans costs 8.12 RU where a plain page of the same items costs ~6.
 */
class SeedChargesTest {
    /** A vehicle as examples/catalogue generates it (~0.75 KB stored). */
    private static final String VEHICLE = """
            {"id":"MA009-N","make":"Mazda","model":"Mazda3","body_style":"SUV","province":"ON","title_status":"Clean",\
            "year":2017,"price":23950,"condition_grade":3.4,"odometer_km":120344,"bid_count":17,\
            "ends_at":"2026-09-14T03:21:55Z","lot":211,"seller_rating":4.2,"description":"One owner, service records\
             available, minor wear consistent with age. Tires at 61% tread; inspected 12 days ago. Runs and drives. Sold\
             as is, where is; buyer responsible for transport within seven days of the close.",\
            "photos":["front.jpg","rear.jpg","interior-4.jpg"]}""";
    private static final String NINE_PATHS = """
            {"indexingMode":"consistent","includedPaths":[{"path":"/make/?"},{"path":"/model/?"},\
            {"path":"/body_style/?"},{"path":"/province/?"},{"path":"/title_status/?"},{"path":"/price/?"},\
            {"path":"/condition_grade/?"},{"path":"/ends_at/?"},{"path":"/bid_count/?"}],"excludedPaths":[{"path":"/*"}]}""";
    private static final PartitionKeyValue MAZDA = PartitionKeyValue.fromHeader("[\"Mazda\"]");

    @Test
    void aScanThatEvaluatesAFunctionPerItemCostsMoreThanAPlainPageOfTheSameItems() {
        try (Engine engine = engine()) {
            ContainerHandle items = engine.container(container(engine, "tuned", NINE_PATHS));
            for (int i = 0; i < 100; i++) {
                items.create(vehicle(i), RequestOptions.of(MAZDA));
            }
            RequestOptions all = RequestOptions.scoped(Scope.CONTAINER);
            QueryPage plain = items.query("SELECT * FROM c WHERE c.year = 2017", Map.of(), all);
            QueryPage contains = items.query("SELECT * FROM c WHERE CONTAINS(c.description, 'tread', true)", Map.of(),
                    all);
            assertThat(contains.rows()).hasSize(100);
            assertThat(contains.work().functionCalls()).isEqualTo(100);
            assertThat(plain.work().functionCalls()).isZero();
            assertThat(contains.requestCharge()).isCloseTo(8.12, within(0.812));
            assertThat(contains.requestCharge() - plain.requestCharge()).isGreaterThan(2.0);
        }
    }

    private static Engine engine() {
        Engine engine = Engine.open(new MemoryStore(), new MutableClock(Instant.parse("2026-11-30T00:00:00Z")),
                Limits.DEFAULTS);
        engine.createDatabase(Json.parseObject(bytes("{\"id\":\"db\"}"), "db"), Throughput.NONE);
        return engine;
    }

    private static ContainerInfo container(Engine engine, String id, String policy) {
        return engine.createContainer("db", Json.parseObject(bytes("{\"id\":\"" + id + "\",\"partitionKey\":{\"paths\":"
                + "[\"/make\"],\"kind\":\"Hash\",\"version\":2}" + (policy == null ? "" : ",\"indexingPolicy\":" + policy)
                + "}"), id), Throughput.manual(1000), 0);
    }

    private static byte[] vehicle(int n) {
        return bytes(VEHICLE.replace("MA009-N", "MA009-" + n));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
