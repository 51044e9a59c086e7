package dev.partita.core.capacity;

import dev.partita.core.request.RequestOptions;
import dev.partita.core.limits.Limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.MutableClock;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Holds the cost model to the published figures (capacity.md §1.6, seed 003) within ±10%, on work of the stated
 * shapes. Index terms are counted here as the default policy would write them: one per scalar leaf path (array
 * elements included) plus {@code _ts}; a policy with included paths writes only those plus {@code id} and {@code _ts}.
 */
class CostModelCalibrationTest {
    private static final CostModel COSTS = CostModel.DEFAULT;
    /** What the stored JSON adds to the sent one: _rid, _self, _etag, _attachments, _ts. */
    private static final int SYSTEM_PROPERTIES = 200;

    /** Seed 003's catalogue document: ~0.8 KB, a vehicle with its auction, seller, features and photos. */
    static final String VEHICLE = """
            {"id":"v-000123","make":"Ford","model":"F-150","year":2019,"trim":"XLT","body_style":"Pickup",\
            "province":"ON","title_status":"Clean","price":28500,"odometer":84210,"condition":4,"colour":"Blue",\
            "vin":"1FTEW1EP5KFA12345","engine":"3.5L V6","transmission":"Automatic","drivetrain":"4WD",\
            "fuel":"Gasoline","seats":5,"doors":4,\
            "auction":{"slot":"2026-09-10T14:00:00Z","lot":117,"bids":12,"reserve_met":true},\
            "seller":{"name":"North Auto Sales","city":"Toronto","rating":4.6},\
            "features":["Tow package","Backup camera","Bluetooth","Heated seats"],"photos":[101,102,103,104],\
            "searchText":"ford f-150 xlt pickup blue tow package backup camera heated seats toronto"}""";

    /** The nine paths seed 003's tuned container indexes. */
    static final Set<String> NINE_PATHS = Set.of("/make", "/model", "/body_style", "/province", "/title_status",
            "/price", "/condition", "/auction/slot", "/auction/bids");

    static void assertNear(double actual, double published) {
        assertThat(actual).as("within 10%% of %s", published).isCloseTo(published, within(published * 0.10));
    }

    // ---- point reads

    @Test
    void pointReadOfOneKilobyteIsOneRequestUnit() {
        assertThat(COSTS.price(Work.read(1024))).isEqualTo(1.00);
        assertThat(COSTS.price(Work.read(200))).as("small items cost the 1 RU minimum").isEqualTo(1.00);
    }

    @Test
    void pointReadOfOneHundredKilobytesIsAboutTen() {
        assertNear(COSTS.price(Work.read(100 * 1024)), 10.0);
        assertThat(COSTS.price(Work.read(10 * 1024))).as("sub-linear in between").isBetween(1.0, 10.0);
    }

    @Test
    void strongAndBoundedStalenessReadsCostDoubleButWritesDoNot() {
        assertThat(COSTS.price(Work.read(1024), true)).isEqualTo(2.00);
        Work create = Work.write(Work.Operation.CREATE, 1024, 4);
        assertThat(COSTS.price(create, true)).isEqualTo(COSTS.price(create, false));
    }

    @Test
    void notModifiedIsNominal() {
        assertThat(COSTS.price(Work.notModified())).isEqualTo(1.00);
    }

    // ---- writes

    @Test
    void createOfAOneKilobyteItemWithDefaultIndexingIsAboutFivePointSeven() {
        String profile = "{\"id\":\"u-1\",\"username\":\"alice\",\"bio\":\"" + "x".repeat(960) + "\"}";
        assertThat(profile.length()).isBetween(990, 1024);
        assertNear(COSTS.price(Work.write(Work.Operation.CREATE, profile.length(), defaultTerms(profile))), 5.7);
        // S28's user item {id, username}: 5.71
        String user = "{\"id\":\"u-1\",\"username\":\"alice\"}";
        assertNear(COSTS.price(Work.write(Work.Operation.CREATE, user.length(), defaultTerms(user))), 5.71);
    }

    @Test
    void writeUnderIndexEverythingCostsAboutOnePointEightTimesNineIndexedPaths() {
        int bytes = VEHICLE.length();
        // stored with its system properties: ~0.8 KB, seed 003's 82 MB over 100,000 documents
        assertThat(bytes + SYSTEM_PROPERTIES).as("seed 003: ~0.8 KB documents").isBetween(750, 900);
        double everything = COSTS.price(Work.write(Work.Operation.CREATE, bytes, defaultTerms(VEHICLE)));
        double nine = COSTS.price(Work.write(Work.Operation.CREATE, bytes, includedTerms(VEHICLE, NINE_PATHS)));
        assertNear(everything / nine, 1.8);
    }

    @Test
    void replaceCostsAboutTwiceTheInsertAndFewerIndexTermsCostLess() {
        Work create = Work.write(Work.Operation.CREATE, 1024, 10);
        // a replace removes the old version's terms and writes the new one's
        Work replace = Work.write(Work.Operation.REPLACE, 1024, 20);
        assertNear(COSTS.price(replace) / COSTS.price(create), 2.0);
        assertThat(COSTS.price(Work.write(Work.Operation.CREATE, 1024, 2))).isLessThan(COSTS.price(create));
        assertThat(COSTS.price(Work.write(Work.Operation.CREATE, 10 * 1024, 10))).isGreaterThan(COSTS.price(create));
    }

    // ---- queries

    @Test
    void queryByIdMissingThePartitionKeyCostsAboutTwoPointEightFive() {
        int bytes = VEHICLE.length() + SYSTEM_PROPERTIES;
        // one index entry (id), one item loaded, one row returned, on the one physical partition
        double q = COSTS.price(Work.scan(Work.Operation.QUERY, 1, 1, bytes, 1, bytes));
        assertThat(q).isBetween(2.8 * 0.9, 2.95 * 1.1);
        assertNear(q, 2.83);
        assertThat(COSTS.price(Work.read(bytes))).isEqualTo(1.00);
    }

    @Test
    void aPageOfOneHundredItemsInOneLogicalPartitionIsAboutSix() {
        int bytes = VEHICLE.length() + SYSTEM_PROPERTIES;
        // through an index (seed 003's province page, 5.98)
        assertNear(COSTS.price(Work.scan(Work.Operation.QUERY, 100, 100, 100L * bytes, 100, 100L * bytes)), 6.0);
        // straight from the partition key, no index entries (the pinned page, 5.86)
        assertNear(COSTS.price(Work.scan(Work.Operation.QUERY, 0, 100, 100L * bytes, 100, 100L * bytes)), 5.86);
    }

    @Test
    void aFilterOnAnExcludedPathCostsTwoOrdersOfMagnitudeMoreThanOnAnIndexedOne() {
        // S29's data: 60,951 documents, 399,998,938 bytes; the equality matches one document
        long items = 60_951;
        long bytes = 399_998_938L;
        long one = bytes / items;
        double scan = COSTS.price(Work.scan(Work.Operation.QUERY, 0, items, bytes, 1, one));
        double indexed = COSTS.price(Work.scan(Work.Operation.QUERY, 1, 1, one, 1, one));
        assertNear(scan, 409.51);
        assertNear(indexed, 2.98);
        assertThat(scan / indexed).isGreaterThan(100);
    }

    @Test
    void aQueryRunOnSeveralPartitionsInOneRequestPaysTheBaseOnEach() {
        Work w = Work.scan(Work.Operation.QUERY, 1, 1, 1024, 1, 1024);
        assertThat(COSTS.price(w, false, 1)).isEqualTo(COSTS.price(w));
        // "2-3 RU per physical partition" (S12)
        assertThat(COSTS.price(w, false, 5) - COSTS.price(w, false, 1)).isBetween(4 * 2.0, 4 * 3.0);
        assertThat(COSTS.price(w, true, 5)).isEqualTo(2 * COSTS.price(w, false, 5));
    }

    @Test
    void theCheapestQueryCostsMoreThanThePublishedMinimum() {
        assertThat(COSTS.price(Work.scan(Work.Operation.QUERY, 0, 0, 0, 0, 0))).isGreaterThanOrEqualTo(2.3);
    }

    @Test
    void changeFeedPagesAreNominalWhenEmptyAndGrowWithItems() {
        assertThat(COSTS.price(Work.scan(Work.Operation.CHANGE_FEED, 0, 0, 0, 0, 0))).isEqualTo(1.00);
        double ten = COSTS.price(Work.scan(Work.Operation.CHANGE_FEED, 0, 10, 10_240, 10, 10_240));
        double hundred = COSTS.price(Work.scan(Work.Operation.CHANGE_FEED, 0, 100, 102_400, 100, 102_400));
        assertThat(ten).isGreaterThan(2.0).isLessThan(hundred);
    }

    @Test
    void failuresAreChargedButThrottlesAreNot() {
        assertThat(COSTS.failed(404)).isEqualTo(1.0);
        assertThat(COSTS.failed(412)).isEqualTo(1.0);
        assertThat(COSTS.failed(429)).isEqualTo(0.0);
    }

    // ---- end to end: the work the engine records for point operations, priced

    @Test
    void pointReadsThroughTheEngineCostByStoredSize() {
        try (Engine engine = Engine.open(new MemoryStore(), new MutableClock(Instant.parse("2026-11-30T00:00:00Z")),
                Limits.DEFAULTS)) {
            engine.createDatabase(Json.parseObject(bytes("{\"id\":\"db\"}"), "db"), Throughput.NONE);
            ContainerInfo c = engine.createContainer("db", Json.parseObject(bytes(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), "c"),
                    Throughput.manual(400), 0);
            ContainerHandle items = engine.container(c);
            PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
            // the stored JSON gains ~200 bytes of system properties: aim the stored size at 1 KB and 100 KB
            items.create(bytes(doc("small", 1024 - 210)), RequestOptions.of(pk));
            items.create(bytes(doc("large", 100 * 1024 - 210)), RequestOptions.of(pk));
            ItemResult small = items.read("small", RequestOptions.of(pk));
            ItemResult large = items.read("large", RequestOptions.of(pk));
            assertThat(small.item().jsonLength()).isBetween(900, 1024);
            assertThat(COSTS.price(small.work())).isEqualTo(1.00);
            assertNear(COSTS.price(large.work()), 10.0);
            ItemResult notModified = items.read("large", RequestOptions.of(pk).withConditions(Conditions.ifNoneMatch(large.etag())));
            assertThat(COSTS.price(notModified.work())).isEqualTo(1.00);
        }
    }

    private static String doc(String id, int size) {
        String head = "{\"id\":\"" + id + "\",\"pk\":\"a\",\"text\":\"";
        return head + "y".repeat(size - head.length() - 2) + "\"}";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- index terms of the shapes above

    /** Terms under "index everything": each scalar leaf (array elements too), plus _ts. */
    static long defaultTerms(String json) {
        return leaves(Json.parse(bytes(json), "doc"), "", null) + 1;
    }

    /** Terms under a policy including only {@code paths}: those present, plus id and _ts (always indexed). */
    static long includedTerms(String json, Set<String> paths) {
        return leaves(Json.parse(bytes(json), "doc"), "", paths) + 2;
    }

    private static long leaves(JsonNode node, String path, Set<String> only) {
        if (node.isObject()) {
            long n = 0;
            for (var e : ((ObjectNode) node).properties()) {
                n += leaves(e.getValue(), path + "/" + e.getKey(), only);
            }
            return n;
        }
        if (node.isArray()) {
            long n = 0;
            for (JsonNode e : node) {
                n += leaves(e, path + "/[]", only);
            }
            return n;
        }
        return only == null || only.contains(path) ? 1 : 0;
    }
}
