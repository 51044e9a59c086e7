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
 * a vehicle written under the nine-path policy (and its composite indexes) costs 8.84 RU, under "index everything" 1.8x that, and a page that
 * evaluates CONTAINS on every item it scans costs 8.12 RU where a plain page of the same items costs ~6.
 */
class SeedChargesTest {
    /** A vehicle as examples/catalogue generates it (~0.8 KB stored, 35 scalar values). */
    private static final String VEHICLE = """
            {"id":"MA009-N","make":"Mazda","model":"CX-30","year":2025,"trim":"XLT","body_style":"SUV",\
            "province":"ON","title_status":"Clean","price":52326,"odometer_km":156709,"condition_grade":2.4,\
            "colour":"Grey","vin":"YPLM8CZT9G6FAUUWP","engine":"2.0L I4","transmission":"Automatic",\
            "drivetrain":"FWD","fuel":"Electric","seats":8,"doors":2,"ends_at":"2026-10-27T11:18:59Z","bid_count":4,\
            "auction":{"lot":7,"reserve_met":true},"seller":{"name":"Prairie Motors","city":"Calgary","rating":4.9},\
            "features":["Backup camera","Bluetooth","Heated seats","Sunroof"],"photos":[18904,18905,18906,18907],\
            "search_text":"mazda cx-30 xlt suv grey 2.0l i4 calgary"}""";
    /** The tuned policy of examples/catalogue: nine paths and the two composite indexes its orders need. */
    private static final String NINE_PATHS = """
            {"indexingMode":"consistent","includedPaths":[{"path":"/make/?"},{"path":"/model/?"},\
            {"path":"/body_style/?"},{"path":"/province/?"},{"path":"/title_status/?"},{"path":"/price/?"},\
            {"path":"/condition_grade/?"},{"path":"/ends_at/?"},{"path":"/bid_count/?"}],"excludedPaths":[{"path":"/*"}],\
            "compositeIndexes":[[{"path":"/price","order":"ascending"},{"path":"/condition_grade","order":"ascending"}],\
            [{"path":"/make","order":"ascending"},{"path":"/ends_at","order":"ascending"}]]}""";
    /** The default policy plus the composite the two-key order needs. */
    private static final String EVERYTHING = """
            {"compositeIndexes":[[{"path":"/price","order":"ascending"},\
            {"path":"/condition_grade","order":"ascending"}]]}""";
    private static final PartitionKeyValue MAZDA = PartitionKeyValue.fromHeader("[\"Mazda\"]");

    @Test
    void aVehicleCostsTheRecordsWriteChargeUnderTheTunedPolicyAndOnePointEightTimesThatUnderTheDefault() {
        try (Engine engine = engine()) {
            ContainerHandle tuned = engine.container(container(engine, "tuned", NINE_PATHS));
            ContainerHandle everything = engine.container(container(engine, "default", EVERYTHING));
            double nine = tuned.create(vehicle(1), RequestOptions.of(MAZDA)).requestCharge();
            double all = everything.create(vehicle(1), RequestOptions.of(MAZDA)).requestCharge();
            // 884,479 RU for 100,000 vehicles; the default policy 1.8 times as much per write
            assertThat(nine).isCloseTo(8.84, within(0.884));
            assertThat(all / nine).isCloseTo(1.8, within(0.18));
        }
    }

    @Test
    void aScanThatEvaluatesAFunctionPerItemCostsMoreThanAPlainPageOfTheSameItems() {
        try (Engine engine = engine()) {
            ContainerHandle items = engine.container(container(engine, "tuned", NINE_PATHS));
            for (int i = 0; i < 100; i++) {
                items.create(vehicle(i), RequestOptions.of(MAZDA));
            }
            RequestOptions all = RequestOptions.scoped(Scope.CONTAINER);
            QueryPage plain = items.query("SELECT * FROM c WHERE c.year = 2025", Map.of(), all);
            QueryPage contains = items.query("SELECT * FROM c WHERE CONTAINS(c.search_text, 'mazda', true)", Map.of(),
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
