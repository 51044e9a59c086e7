package dev.partita.core.changefeed;

import dev.partita.core.store.ChangeRecord;
import dev.partita.core.request.Scope;
import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.MutableClock;
import dev.partita.core.TickingClock;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.store.ChangeRecord.Operation;
import dev.partita.core.request.Conditions;
import dev.partita.core.ContainerHandle;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The change-feed readers over the engine's change log, without HTTP; run once per store implementation. */
abstract class ChangeFeedReaderTest {
    static final ChangeFeedMode LV = ChangeFeedMode.LATEST_VERSION;
    static final ChangeFeedMode AVAD = ChangeFeedMode.ALL_VERSIONS_AND_DELETES;

    MutableClock clock = new MutableClock(Instant.parse("2026-11-30T12:00:00Z"));
    Engine engine;
    ContainerInfo c;
    ContainerHandle items;

    @TempDir
    Path tmp;

    protected abstract Store openStore(Path dir);

    @BeforeEach
    void open() {
        engine = Engine.open(openStore(tmp), clock, Limits.DEFAULTS, (condition, item) -> true);
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        c = engine.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\","
                + "\"version\":2},\"defaultTtl\":-1}"), Throughput.NONE, 3);
        items = engine.container(c);
    }

    @AfterEach
    void close() {
        engine.close();
    }

    static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test");
    }

    static PartitionKeyValue pk(String value) {
        return PartitionKeyValue.fromHeader("[\"" + value + "\"]");
    }

    void put(String id, String pk, int v) {
        items.upsert(("{\"id\":\"" + id + "\",\"pk\":\"" + pk + "\",\"v\":" + v + "}")
                .getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk(pk)));
    }

    void delete(String id, String pk) {
        items.delete(id, RequestOptions.of(pk(pk)));
    }

    ChangeFeedPage read(Scope scope, ChangeFeedStart start, int max, ChangeFeedMode mode) {
        return engine.container(c).changeFeed(start, mode, RequestOptions.scoped(scope).withMaxItemCount(max));
    }

    /** Pages through a scope until an empty page; returns every change and the final continuation. */
    List<ChangeRecord> drain(Scope scope, ChangeFeedStart start, int max, ChangeFeedMode mode,
            long[] continuation) {
        List<ChangeRecord> out = new ArrayList<>();
        ChangeFeedPage page = read(scope, start, max, mode);
        while (!page.notModified()) {
            assertThat(page.changes().size()).isLessThanOrEqualTo(max);
            out.addAll(page.changes());
            page = read(scope, ChangeFeedStart.after(page.continuationLsn()), max, mode);
        }
        continuation[0] = page.continuationLsn();
        return out;
    }

    static List<String> ids(List<ChangeRecord> rs) {
        return rs.stream().map(ChangeRecord::id).toList();
    }

    static int v(ChangeRecord r) {
        return Json.parse(r.newImage(), "doc").get("v").asInt();
    }

    @Test
    void latestVersionHasEachLiveItemOnceAtItsLatestLsn() {
        put("a", "p1", 1);
        put("b", "p2", 1);
        put("a", "p1", 2);
        put("c", "p3", 1);
        delete("b", "p2");
        long[] cont = new long[1];
        List<ChangeRecord> all = drain(Scope.CONTAINER, ChangeFeedStart.beginning(), 1, LV, cont);
        assertThat(ids(all)).containsExactly("a", "c");
        assertThat(v(all.get(0))).isEqualTo(2);
        assertThat(all.get(0).lsn()).isEqualTo(3);
        assertThat(cont[0]).as("an empty page's continuation is the head").isEqualTo(engine.lsn(c));

        put("d", "p4", 1);
        ChangeFeedPage next = read(Scope.CONTAINER, ChangeFeedStart.after(cont[0]), 10, LV);
        assertThat(ids(next.changes())).containsExactly("d");
        assertThat(next.continuationLsn()).isEqualTo(6);
        assertThat(next.headLsn()).isEqualTo(6);
        assertThat(next.etag()).isEqualTo("\"6\"");
        assertThat(next.work().operation()).isEqualTo(Work.Operation.CHANGE_FEED);
        assertThat(next.work().rowsReturned()).isEqualTo(1);
    }

    @Test
    void aFullPageContinuesAfterItsLastChangeAndAPartialPageAtTheHead() {
        for (int i = 0; i < 5; i++) {
            put("i" + i, "p" + i, 1);
        }
        ChangeFeedPage full = read(Scope.CONTAINER, ChangeFeedStart.beginning(), 2, LV);
        assertThat(full.changes()).hasSize(2);
        assertThat(full.continuationLsn()).isEqualTo(full.changes().get(1).lsn());
        ChangeFeedPage rest = read(Scope.CONTAINER, ChangeFeedStart.after(full.continuationLsn()), 10, LV);
        assertThat(rest.changes()).hasSize(3);
        assertThat(rest.continuationLsn()).isEqualTo(5);
    }

    /**
     * A page whose log holds many records it passes over (here 300 superseded versions of one item) ends at the
     * request's deadline with an etag at the record it reached: empty, it is not a "not modified" (which would tell
     * the SDK the range is drained), and following it finds the one live version. The clock moves one millisecond per
     * read, so a 20 ms budget ends the page after a few records.
     */
    @Test
    void aPageOverManySkippedVersionsEndsAtTheDeadlineAndContinues() {
        TickingClock ticking = new TickingClock(clock.instant(), false);
        try (Engine bounded = Engine.open(openStore(tmp.resolve("bounded")), ticking,
                Limits.DEFAULTS.toBuilder().maxRequestExecution(Duration.ofMillis(20)).build())) {
            bounded.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
            ContainerInfo one = bounded.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":"
                    + "[\"/pk\"],\"kind\":\"Hash\",\"version\":2}}"), Throughput.NONE, 1);
            for (int v = 0; v < 300; v++) {
                bounded.container(one).upsert(("{\"id\":\"a\",\"pk\":\"p\",\"v\":" + v + "}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
            }
            ticking.start();
            RequestOptions range = RequestOptions.scoped(Scope.range("0")).withMaxItemCount(10);
            ChangeFeedPage page = bounded.container(one).changeFeed(ChangeFeedStart.beginning(), LV, range);
            assertThat(page.changes()).as("the deadline came before the live version").isEmpty();
            assertThat(page.notModified()).isFalse();
            assertThat(page.continuationLsn()).isBetween(1L, 299L);
            List<ChangeRecord> found = new ArrayList<>();
            int pages = 1;
            while (!page.notModified()) {
                found.addAll(page.changes());
                page = bounded.container(one).changeFeed(ChangeFeedStart.after(page.continuationLsn()), LV, range);
                assertThat(++pages).isLessThan(400);
            }
            assertThat(found).extracting(ChangeFeedReaderTest::v).containsExactly(299);
            assertThat(page.continuationLsn()).isEqualTo(300);
        }
    }

    @Test
    void fromNowIsEmptyWithTheHeadAsContinuation() {
        put("a", "p1", 1);
        put("b", "p2", 1);
        ChangeFeedPage now = read(Scope.range("1"), ChangeFeedStart.now(), 10, LV);
        assertThat(now.notModified()).isTrue();
        assertThat(now.continuationLsn()).isEqualTo(2);
        assertThat(now.sessionToken()).isEqualTo("1:-1#2");
    }

    @Test
    void expiredItemsLeaveTheLatestVersionFeedAtOnce() {
        items.create("{\"id\":\"e\",\"pk\":\"p\",\"ttl\":5}".getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
        put("k", "p", 1);
        clock.advance(Duration.ofSeconds(10));
        assertThat(ids(read(Scope.CONTAINER, ChangeFeedStart.beginning(), 10, LV).changes()))
                .containsExactly("k");
    }

    @Test
    void rangesTileTheFeedAndAGoneRangeIsA410() {
        for (int i = 0; i < 30; i++) {
            put("i" + i, "p" + i, 1);
        }
        Set<String> seen = new HashSet<>();
        for (PhysicalPartition p : c.partitions().partitions()) {
            for (ChangeRecord r : read(Scope.range(p.id()), ChangeFeedStart.beginning(), 100, LV)
                    .changes()) {
                assertThat(p.contains(r.epk())).isTrue();
                assertThat(seen.add(r.id())).isTrue();
            }
        }
        assertThat(seen).hasSize(30);

        ChangeFeedPage before = read(Scope.range("0"), ChangeFeedStart.beginning(), 3, LV);
        ContainerInfo split = engine.split(c, "0");
        assertThatThrownBy(() -> read(Scope.range("0"), ChangeFeedStart.after(before.continuationLsn()),
                10, LV)).isInstanceOfSatisfying(ServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(410);
                    assertThat(e.subStatus()).isEqualTo(SubStatus.PARTITION_KEY_RANGE_GONE);
                });
        // the children continue from the parent's etag: together they hold the rest of the parent's changes
        Set<String> rest = new HashSet<>();
        for (PhysicalPartition child : split.partitions().partitions()) {
            if (child.parents().contains("0")) {
                rest.addAll(ids(read(Scope.range(child.id()),
                        ChangeFeedStart.after(before.continuationLsn()), 100, LV).changes()));
            }
        }
        Set<String> parentAll = new HashSet<>(ids(read(Scope.epkRange(null, "",
                c.partitions().byId("0").maxExclusive()), ChangeFeedStart.beginning(), 100, LV).changes()));
        assertThat(rest).doesNotContainAnyElementsOf(ids(before.changes()));
        rest.addAll(ids(before.changes()));
        assertThat(rest).isEqualTo(parentAll);
    }

    @Test
    void anEpkSubRangeAndALogicalPartition() {
        for (int i = 0; i < 20; i++) {
            put("i" + i, "p" + (i % 5), i);
        }
        PhysicalPartition p0 = c.partitions().byId("0");
        String epk = EffectivePartitionKey.of(c.partitionKey(), pk("p2"));
        String owner = c.partitions().route(epk).id();
        PhysicalPartition range = c.partitions().byId(owner);
        List<ChangeRecord> sub = read(Scope.epkRange(owner, epk, range.maxExclusive()),
                ChangeFeedStart.beginning(), 100, LV).changes();
        assertThat(sub).allSatisfy(r -> assertThat(r.epk()).isGreaterThanOrEqualTo(epk));
        assertThat(ids(sub)).contains("i2", "i7", "i12", "i17");

        List<ChangeRecord> logical = read(Scope.partitionKey(pk("p2")), ChangeFeedStart.beginning(), 100,
                LV).changes();
        assertThat(ids(logical)).containsExactly("i2", "i7", "i12", "i17");
        assertThat(p0.minInclusive()).isEmpty();
    }

    @Test
    void aHierarchicalKeyPrefix() {
        ContainerInfo h = engine.createContainer("db", json("{\"id\":\"h\",\"partitionKey\":{\"paths\":[\"/t\",\"/u\"],"
                + "\"kind\":\"MultiHash\",\"version\":2}}"), Throughput.NONE, 3);
        ContainerHandle hi = engine.container(h);
        for (int i = 0; i < 12; i++) {
            String t = "t" + (i % 2);
            String u = "u" + (i % 3);
            hi.create(("{\"id\":\"h" + i + "\",\"t\":\"" + t + "\",\"u\":\"" + u + "\"}").getBytes(StandardCharsets.UTF_8), RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + t + "\",\"" + u + "\"]")));
        }
        List<ChangeRecord> t1 = engine.container(h).changeFeed(ChangeFeedStart.beginning(), LV, RequestOptions.scoped(Scope.partitionKey(PartitionKeyValue.fromHeader(
                "[\"t1\"]"))).withMaxItemCount(100)).changes();
        assertThat(ids(t1)).containsExactly("h1", "h3", "h5", "h7", "h9", "h11");
        List<ChangeRecord> t1u2 = engine.container(h).changeFeed(ChangeFeedStart.beginning(), LV, RequestOptions.scoped(Scope.partitionKey(PartitionKeyValue.fromHeader(
                "[\"t1\",\"u2\"]"))).withMaxItemCount(100)).changes();
        assertThat(ids(t1u2)).containsExactly("h5", "h11");
    }

    @Test
    void aPointInTimeFiltersByWriteTime() {
        put("old", "p", 1);
        clock.advance(Duration.ofSeconds(30));
        Instant t = clock.instant();
        put("new", "p", 1);
        assertThat(ids(read(Scope.CONTAINER, ChangeFeedStart.pointInTime(t), 10, LV).changes()))
                .containsExactly("new");
        assertThat(ids(read(Scope.CONTAINER, ChangeFeedStart.pointInTime(t.plusSeconds(1)), 10, LV)
                .changes())).isEmpty();
    }

    @Test
    void allVersionsHasEveryOperationAndMarksTtlExpiries() {
        long start = read(Scope.CONTAINER, ChangeFeedStart.now(), 10, AVAD).continuationLsn();
        put("a", "p", 1);
        put("a", "p", 2);
        delete("a", "p");
        items.create("{\"id\":\"e\",\"pk\":\"q\",\"ttl\":5}".getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("q")));
        clock.advance(Duration.ofSeconds(10));
        assertThat(engine.sweepExpired()).isEqualTo(1);
        long[] cont = new long[1];
        List<ChangeRecord> all = drain(Scope.CONTAINER, ChangeFeedStart.after(start), 2, AVAD, cont);
        assertThat(all).extracting(ChangeRecord::operation).containsExactly(Operation.CREATE, Operation.REPLACE,
                Operation.DELETE, Operation.CREATE, Operation.TTL_EXPIRE);
        assertThat(all).extracting(ChangeRecord::previousLsn).containsExactly(0L, 1L, 2L, 0L, 4L);
        assertThat(cont[0]).isEqualTo(5);
    }

    @Test
    void allVersionsStartsOnlyFromNowOrAContinuationInsideTheRetentionWindow() {
        assertThatThrownBy(() -> read(Scope.CONTAINER, ChangeFeedStart.beginning(), 10, AVAD))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        long start = read(Scope.CONTAINER, ChangeFeedStart.now(), 10, AVAD).continuationLsn();
        put("a", "p", 1);
        put("a", "p", 2);
        put("b", "p", 1);
        long after = 2;
        clock.advance(Limits.DEFAULTS.changeLogRetention().plusMinutes(1));
        assertThat(engine.pruneChangeLog()).isEqualTo(1); // a's first version; the latest versions stay
        assertThatThrownBy(() -> read(Scope.CONTAINER, ChangeFeedStart.after(start), 10, AVAD))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThat(ids(read(Scope.CONTAINER, ChangeFeedStart.after(after), 10, AVAD).changes()))
                .containsExactly("b");
        assertThat(ids(read(Scope.CONTAINER, ChangeFeedStart.beginning(), 10, LV).changes()))
                .containsExactly("a", "b");
    }

    @Test
    void overTheChangeLogBudgetTheOldestSupersededVersionsGoAndAnOlderContinuationIsRefused() {
        long budget = 4_000;
        try (Engine small = withChangeLogBudget("budget", budget)) {
            ContainerInfo box = small.container("db", "c").info();
            ContainerHandle h = small.container(box);
            String pad = "x".repeat(100);
            for (int v = 1; v <= 100; v++) {
                h.upsert(("{\"id\":\"a\",\"pk\":\"p\",\"v\":" + v + ",\"pad\":\"" + pad + "\"}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
            }
            h.upsert("{\"id\":\"b\",\"pk\":\"q\",\"v\":1}".getBytes(StandardCharsets.UTF_8),
                    RequestOptions.of(pk("q")));
            RequestOptions all = RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(1_000);
            // well inside the retention window: only the budget drops anything
            int dropped = small.pruneChangeLog();
            assertThat(dropped).isBetween(50, 99);
            long floor = ChangeLogRetention.floor(small.store(), box.containerId());
            assertThat(floor).isEqualTo(dropped);
            assertThatThrownBy(() -> h.changeFeed(ChangeFeedStart.after(0), AVAD, all))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            // from the mark on, every change still kept, newest last, within the budget
            List<ChangeRecord> kept = h.changeFeed(ChangeFeedStart.after(floor), AVAD, all).changes();
            assertThat(kept).extracting(ChangeRecord::lsn).first().isEqualTo(floor + 1);
            assertThat(kept).extracting(ChangeRecord::id).last().isEqualTo("b");
            assertThat(kept).hasSize(101 - dropped);
            // the latest-version feed still has every item from the beginning
            assertThat(ids(h.changeFeed(ChangeFeedStart.beginning(), LV, all).changes())).containsExactly("a", "b");
            assertThat(small.pruneChangeLog()).as("an unchanged log is within budget").isZero();
        }
    }

    /** An engine of its own whose change log keeps {@code budget} bytes, with one single-partition container db/c. */
    Engine withChangeLogBudget(String dir, long budget) {
        Engine small = Engine.open(openStore(tmp.resolve(dir)), clock,
                Limits.DEFAULTS.toBuilder().maxChangeLogBytes(budget).build(), (condition, item) -> true);
        small.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        small.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\","
                + "\"version\":2}}"), Throughput.NONE, 1);
        return small;
    }

    /** The log's records as stored, by LSN. */
    static List<byte[]> storedLog(Engine e, ContainerInfo box) {
        List<byte[]> out = new ArrayList<>();
        try (var cur = e.store().scan(StoreKeys.containerStart(StoreKeys.logSpace(), box.containerId()),
                StoreKeys.containerEnd(StoreKeys.logSpace(), box.containerId()))) {
            while (cur.next()) {
                out.add(cur.value());
            }
        }
        return out;
    }

    @Test
    void aVersionsImageIsKeptOnceInTheItemUntilAWriteSupersedesItAndMovesItIntoItsRecord() {
        long start = read(Scope.CONTAINER, ChangeFeedStart.now(), 10, AVAD).continuationLsn();
        put("a", "p", 1);
        assertThat(storedLog(engine, c)).singleElement()
                .satisfies(r -> assertThat(ChangeRecord.holdsImage(r)).as("a create holds no copy").isFalse());
        put("a", "p", 2);
        List<byte[]> log = storedLog(engine, c);
        assertThat(ChangeRecord.holdsImage(log.get(0))).as("the superseded version's record").isTrue();
        assertThat(v(ChangeRecord.decode(log.get(0)))).isEqualTo(1);
        assertThat(ChangeRecord.holdsImage(log.get(1))).isFalse();
        assertThat(ChangeRecord.decode(log.get(1)).previousImage()).as("not served for replaces").isNull();
        delete("a", "p");
        log = storedLog(engine, c);
        assertThat(v(ChangeRecord.decode(log.get(1)))).isEqualTo(2);
        assertThat(Json.parse(ChangeRecord.decode(log.get(2)).previousImage(), "doc").get("v").asInt()).isEqualTo(2);
        put("a", "p", 3);
        put("b", "p", 1);

        List<ChangeRecord> all = read(Scope.CONTAINER, ChangeFeedStart.after(start), 10, AVAD).changes();
        assertThat(all).extracting(ChangeRecord::operation).containsExactly(Operation.CREATE, Operation.REPLACE,
                Operation.DELETE, Operation.CREATE, Operation.CREATE);
        assertThat(all.stream().filter(r -> !r.operation().isDelete()).map(ChangeFeedReaderTest::v))
                .containsExactly(1, 2, 3, 1);
        assertThat(read(Scope.CONTAINER, ChangeFeedStart.beginning(), 10, LV).changes())
                .extracting(ChangeFeedReaderTest::v).containsExactly(3, 1);
    }

    /**
     * A write that supersedes a version measured by an earlier pruning pass grows that version's record by its
     * image: the pass that follows must count it, or a log of slim records hides its superseded images from the
     * budget.
     */
    @Test
    void upsertsAfterAPruningPassAreCountedWithTheImagesTheyMoveIntoOlderRecords() {
        long budget = 20_000;
        try (Engine small = withChangeLogBudget("moved", budget)) {
            ContainerInfo box = small.container("db", "c").info();
            ContainerHandle h = small.container(box);
            String pad = "x".repeat(1_000);
            for (int round = 0; round <= 4; round++) {
                // each round supersedes every item's version of the round before, whose record a pass measured
                for (int i = 0; i < 15; i++) {
                    h.upsert(("{\"id\":\"i" + i + "\",\"pk\":\"p\",\"v\":" + round + ",\"pad\":\"" + pad
                            + "\"}").getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
                }
                small.pruneChangeLog();
            }
            long superseded = storedLog(small, box).stream().filter(ChangeRecord::holdsImage)
                    .mapToLong(r -> r.length).sum();
            assertThat(superseded).as("superseded versions' bytes after 4 rounds of 15 KB").isPositive()
                    .isLessThanOrEqualTo(budget);
            assertThat(ids(h.changeFeed(ChangeFeedStart.beginning(), LV,
                    RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(100)).changes())).hasSize(15);
        }
    }

    @Test
    void theContainersChangeFeedPolicySetsTheRetentionWindow() {
        ContainerInfo short1 = engine.createContainer("db", json("{\"id\":\"s\",\"partitionKey\":{\"paths\":[\"/pk\"]},"
                + "\"changeFeedPolicy\":{\"retentionDuration\":10}}"), Throughput.NONE, 1);
        assertThat(ChangeLogRetention.of(short1, Limits.DEFAULTS)).isEqualTo(Duration.ofMinutes(10));
        assertThat(ChangeLogRetention.of(c, Limits.DEFAULTS)).isEqualTo(Limits.DEFAULTS.changeLogRetention());
        ContainerHandle s = engine.container(short1);
        s.upsert("{\"id\":\"x\",\"pk\":\"p\",\"v\":1}".getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
        s.upsert("{\"id\":\"x\",\"pk\":\"p\",\"v\":2}".getBytes(StandardCharsets.UTF_8), RequestOptions.of(pk("p")));
        put("y", "p", 1);
        put("y", "p", 2);
        clock.advance(Duration.ofMinutes(11));
        assertThat(engine.pruneChangeLog()).as("only the short-window container").isEqualTo(1);
    }

    @Test
    void readingWhileAWriterRunsLosesAndRepeatsNothing() throws Exception {
        // the head comes from the reader's snapshot, not from the writer's counter (which runs ahead of commits):
        // an etag never jumps over a change that was not committed yet
        int n = 2000;
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                put("w" + i, "p" + (i % 50), 1);
            }
        });
        writer.start();
        Set<String> seen = new HashSet<>();
        long after = 0;
        boolean writerDone = false;
        while (true) {
            ChangeFeedPage page = read(Scope.CONTAINER, ChangeFeedStart.after(after), 37, AVAD);
            for (ChangeRecord r : page.changes()) {
                assertThat(seen.add(r.id())).as("each create once").isTrue();
            }
            assertThat(page.continuationLsn()).isGreaterThanOrEqualTo(after);
            after = page.continuationLsn();
            if (page.notModified() && writerDone) {
                break;
            }
            writerDone = !writer.isAlive();
        }
        writer.join();
        assertThat(seen).hasSize(n);
    }

    /**
     * Superseding a version moves its image from the item into its record in the same store batch: an all-versions
     * reader paging while a writer upserts the same items over and over finds every version's own image.
     */
    @Test
    void allVersionsReadWhileAWriterSupersedesVersionsHasEachVersionsImage() throws Exception {
        long start = read(Scope.CONTAINER, ChangeFeedStart.now(), 10, AVAD).continuationLsn();
        int items = 50;
        int versions = 30;
        Thread writer = new Thread(() -> {
            for (int v = 1; v <= versions; v++) {
                for (int i = 0; i < items; i++) {
                    put("u" + i, "p" + (i % 7), v);
                }
            }
        });
        writer.start();
        java.util.Map<String, List<Integer>> seen = new java.util.HashMap<>();
        long after = start;
        boolean writerDone = false;
        while (true) {
            ChangeFeedPage page = read(Scope.CONTAINER, ChangeFeedStart.after(after), 23, AVAD);
            for (ChangeRecord r : page.changes()) {
                seen.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(v(r));
            }
            after = page.continuationLsn();
            if (page.notModified() && writerDone) {
                break;
            }
            writerDone = !writer.isAlive();
        }
        writer.join();
        List<Integer> expected = java.util.stream.IntStream.rangeClosed(1, versions).boxed().toList();
        assertThat(seen).hasSize(items).allSatisfy((id, vs) -> assertThat(vs).isEqualTo(expected));
    }

    @Test
    void badContinuationsAre400s() {
        assertThat(ChangeFeedStart.fromIfNoneMatch(null).kind()).isEqualTo(ChangeFeedStart.Kind.BEGINNING);
        assertThat(ChangeFeedStart.fromIfNoneMatch("*").kind()).isEqualTo(ChangeFeedStart.Kind.NOW);
        assertThat(ChangeFeedStart.fromIfNoneMatch("\"12\"")).isEqualTo(ChangeFeedStart.after(12));
        assertThat(ChangeFeedStart.fromIfNoneMatch("12")).isEqualTo(ChangeFeedStart.after(12));
        assertThatThrownBy(() -> ChangeFeedStart.fromIfNoneMatch("\"lsn-2\""))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        assertThatThrownBy(() -> ChangeFeedStart.fromIfNoneMatch("-3"))
                .isInstanceOf(ServiceException.class);
    }

    @Test
    void theHeaderPeekAgreesWithTheFullDecode() {
        ChangeRecord r = new ChangeRecord(Operation.REPLACE, 42, 1700000000, "0ABC", "ïd/ü\u0000x", 7,
                "{}".getBytes(StandardCharsets.UTF_8), "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        ChangeRecord.Header h = ChangeRecord.peek(r.encode());
        assertThat(h).isEqualTo(new ChangeRecord.Header(Operation.REPLACE, 42, 1700000000, "0ABC", "ïd/ü\u0000x"));
        assertThat(ChangeRecord.peek(new ChangeRecord(Operation.CREATE, 1, 2, "", "plain", 0, null, null).encode())
                .id()).isEqualTo("plain");
    }

    // ---- the wire shapes

    @Test
    void documentsWrappedAndAllVersionsShapes() {
        byte[] doc = "{\"id\":\"a\",\"pk\":\"p\",\"_ts\":5}".getBytes(StandardCharsets.UTF_8);
        byte[] prev = "{\"id\":\"a\",\"pk\":\"p\",\"v\":0}".getBytes(StandardCharsets.UTF_8);
        ChangeRecord replace = new ChangeRecord(Operation.REPLACE, 9, 5, "E", "a", 4, doc, prev);
        ChangeRecord expired = new ChangeRecord(Operation.TTL_EXPIRE, 10, 6, "E", "a", 9, null, doc);
        ChangeRecord emptyDoc = new ChangeRecord(Operation.CREATE, 11, 6, "E", "b", 0,
                "{ }".getBytes(StandardCharsets.UTF_8), null);
        var def = c.partitionKey();

        JsonNode plain = Json.parse(ChangeFeedJson.change(replace, ChangeFeedJson.Shape.DOCUMENT, def), "x");
        assertThat(plain.get("_lsn").asLong()).isEqualTo(9);
        assertThat(plain.get("id").asText()).isEqualTo("a");
        assertThat(Json.parse(ChangeFeedJson.change(emptyDoc, ChangeFeedJson.Shape.DOCUMENT, def), "x")
                .get("_lsn").asLong()).isEqualTo(11);

        JsonNode wrapped = Json.parse(ChangeFeedJson.change(replace, ChangeFeedJson.Shape.WRAPPED, def), "x");
        assertThat(wrapped.get("current").get("_lsn").asLong()).isEqualTo(9);
        assertThat(wrapped.get("metadata").get("operationType").asText()).isEqualTo("replace");
        assertThat(wrapped.get("metadata").get("previousImageLSN").asLong()).isEqualTo(4);
        assertThat(wrapped.has("previous")).isFalse();

        JsonNode gone = Json.parse(ChangeFeedJson.change(expired, ChangeFeedJson.Shape.ALL_VERSIONS, def), "x");
        assertThat(gone.get("current").isEmpty()).as("an empty current on deletes").isTrue();
        assertThat(gone.get("previous").get("id").asText()).isEqualTo("a");
        JsonNode m = gone.get("metadata");
        assertThat(m.get("operationType").asText()).isEqualTo("delete");
        assertThat(m.get("timeToLiveExpired").asBoolean()).isTrue();
        assertThat(m.get("lsn").asLong()).isEqualTo(10);
        assertThat(m.get("crts").asLong()).isEqualTo(6);
        assertThat(m.get("id").asText()).isEqualTo("a");
        assertThat(m.get("partitionKey")).isEqualTo(json("{\"pk\":\"p\"}"));

        JsonNode page = Json.parse(ChangeFeedJson.page("rid==", List.of(replace, emptyDoc),
                ChangeFeedJson.Shape.DOCUMENT, def), "page");
        assertThat(page.get("_rid").asText()).isEqualTo("rid==");
        assertThat(page.get("_count").asInt()).isEqualTo(2);
        assertThat(page.get("Documents")).hasSize(2);
    }
}
