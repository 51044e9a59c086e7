package dev.partita.core.query;

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
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paging and scoping of queries: every page size and range count gives the rows a single whole evaluation gives. */
class QueryExecutorTest {
    static final MutableClock CLOCK = new MutableClock(Instant.parse("2026-11-30T00:00:00Z"));

    static final List<String> QUERIES = List.of(
            "SELECT * FROM c",
            "SELECT c.id, c.n FROM c WHERE c.n > 10",
            "SELECT VALUE t FROM c JOIN t IN c.tags",
            "SELECT TOP 7 c.id FROM c",
            "SELECT c.id FROM c WHERE c.cat = 'a' OFFSET 3 LIMIT 9",
            "SELECT c.id, c.n FROM c ORDER BY c.n",
            "SELECT VALUE COUNT(1) FROM c",
            "SELECT c.cat, COUNT(1) AS n FROM c GROUP BY c.cat",
            "SELECT DISTINCT VALUE c.cat FROM c");

    static Engine engineWith(int partitions, int items, long seed) {
        Engine engine = Engine.open(new MemoryStore(), CLOCK, Limits.DEFAULTS);
        load(engine, partitions, items, seed);
        return engine;
    }

    static void load(Engine engine, int partitions, int items, long seed) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        engine.createContainer("db", (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}",
                "t"), Throughput.NONE, partitions);
        Random r = new Random(seed);
        for (int i = 0; i < items; i++) {
            int tags = r.nextInt(4);
            StringBuilder t = new StringBuilder("[");
            for (int j = 0; j < tags; j++) {
                t.append(j == 0 ? "" : ",").append('"').append("t").append(r.nextInt(5)).append('"');
            }
            String doc = "{\"id\":\"i" + i + "\",\"pk\":\"p" + r.nextInt(30) + "\",\"n\":" + r.nextInt(50)
                    + ",\"cat\":\"" + (char) ('a' + r.nextInt(3)) + "\",\"tags\":" + t + "]}";
            engine.container("db", "c").create(doc.getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        }
    }

    /** Every row of every range, page by page, following continuations. */
    static List<JsonNode> drain(Engine engine, String query, int pageSize) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<JsonNode> rows = new ArrayList<>();
        for (PhysicalPartition p : c.partitions().partitions()) {
            String token = null;
            int pages = 0;
            do {
                QueryPage page = engine.container(c).query(query, Map.of(), RequestOptions.scoped(Scope.range(p.id())).withContinuation(token).withMaxItemCount(pageSize));
                assertThat(page.rows().size()).isLessThanOrEqualTo(pageSize);
                rows.addAll(page.rows());
                token = page.continuation();
                assertThat(++pages).isLessThan(10_000);
            } while (token != null);
        }
        return rows;
    }

    /**
     * Runs an ORDER BY on a wildcard-indexed path until it no longer answers 408: the first ones build the set of the
     * items without a scalar there ({@link NonScalarItems}), a part per request, within each request's budget.
     */
    static void buildNonScalars(Engine engine, String query, Scope scope) {
        for (int tries = 0; ; tries++) {
            assertThat(tries).as("requests building the set").isLessThan(10_000);
            try {
                engine.container("db", "c").query(query, Map.of(), RequestOptions.scoped(scope));
                return;
            } catch (ServiceException e) {
                assertThat(e.status()).isEqualTo(408);
            }
        }
    }

    /** The pages of one range, following continuations. */
    static List<List<JsonNode>> pages(Engine engine, String query, String range) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<List<JsonNode>> pages = new ArrayList<>();
        String token = null;
        do {
            QueryPage page = engine.container(c).query(query, Map.of(), RequestOptions.scoped(Scope.range(range))
                    .withContinuation(token));
            pages.add(page.rows());
            token = page.continuation();
            assertThat(pages.size()).isLessThan(10_000);
        } while (token != null);
        return pages;
    }

    /** The query evaluated once over every item of the container, without the executor's paging. */
    static List<JsonNode> whole(Engine engine, String query) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<JsonNode> all = engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.CONTAINER)).rows();
        return Sql.parse(query).execute(all, Map.of(), EvalContext.of(CLOCK));
    }

    @Property(tries = 30)
    void streamedQueriesGiveTheSameRowsForEveryPageSizeAndRangeCount(@ForAll @IntRange(min = 1, max = 5) int ranges,
            @ForAll @IntRange(min = 1, max = 20) int pageSize, @ForAll long seed) {
        try (Engine engine = engineWith(ranges, 60, seed)) {
            for (String q : List.of(QUERIES.get(0), QUERIES.get(1), QUERIES.get(2))) {
                assertThat(drain(engine, q, pageSize)).as(q).containsExactlyInAnyOrderElementsOf(whole(engine, q));
            }
        }
    }

    @Test
    void pageSizesOneSevenAndAThousandAgreeOnEveryShapeWithOneRange() {
        for (int size : new int[] {1, 7, 1000}) {
            try (Engine engine = engineWith(1, 120, 42)) {
                for (String q : QUERIES) {
                    List<JsonNode> expected = whole(engine, q);
                    List<JsonNode> got = drain(engine, q, size);
                    if (q.contains("ORDER BY")) {
                        assertThat(got).as(q + " / " + size).containsExactlyElementsOf(expected);
                    } else {
                        assertThat(got).as(q + " / " + size).containsExactlyInAnyOrderElementsOf(expected);
                    }
                }
            }
        }
    }

    /**
     * With no time at all per request, every page ends after its first item (the deadline has passed when the next
     * would load) and hands out a continuation: draining gives exactly the rows of one whole evaluation, on the
     * streamed path, on the index path, and in index order.
     */
    @Test
    void pagesThatReachTheRequestDeadlineEndEarlyWithAContinuationAndLoseNothing() {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        try (Engine engine = Engine.open(new MemoryStore(), CLOCK, noTime)) {
            load(engine, 1, 40, 11);
            List<JsonNode> items = drain(engine, "SELECT * FROM c", 1000);
            assertThat(items).hasSize(40);
            buildNonScalars(engine, "SELECT c.id, c.n FROM c ORDER BY c.n", Scope.range("0"));
            for (String q : List.of("SELECT * FROM c", "SELECT c.id FROM c WHERE c.n > 10",
                    "SELECT VALUE t FROM c JOIN t IN c.tags", "SELECT c.id FROM c WHERE c.id = 'i7'",
                    "SELECT c.id, c.n FROM c ORDER BY c.n", "SELECT TOP 5 c.id FROM c WHERE c.n < 40")) {
                List<JsonNode> expected = Sql.parse(q).execute(items, Map.of(), EvalContext.of(CLOCK));
                List<JsonNode> got = drain(engine, q, 1000);
                if (q.contains("ORDER BY")) {
                    assertThat(got).as(q).containsExactlyElementsOf(expected);
                } else if (q.contains("TOP")) {
                    assertThat(got).as(q).hasSize(5);
                } else {
                    assertThat(got).as(q).containsExactlyInAnyOrderElementsOf(expected);
                }
            }
            ContainerInfo c = engine.readContainer("db", "c");
            QueryPage first = engine.container(c).query("SELECT * FROM c", Map.of(),
                    RequestOptions.scoped(Scope.range(c.partitions().partitions().get(0).id())));
            assertThat(first.rows()).as("one item, then the deadline").hasSize(1);
            assertThat(first.continuation()).isNotNull();
        }
    }

    /**
     * The deadline may pass between an index-ordered page's {@code hasNext} and its {@code next}: the item already
     * found is returned, not lost to a NoSuchElementException (a 500 seen under load). A clock that moves one
     * millisecond per read puts the deadline at every point of the loop across the budgets tried.
     */
    @Test
    void theDeadlinePassingBetweenFindingAnItemAndTakingItLosesNothing() {
        for (int budget = 1; budget <= 30; budget++) {
            Clock ticking = new TickingClock(CLOCK.instant(), true);
            Limits limits = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ofMillis(budget))
                    .build();
            try (Engine engine = Engine.open(new MemoryStore(), ticking, limits)) {
                load(engine, 1, 30, 5);
                buildNonScalars(engine, "SELECT c.id, c.n FROM c ORDER BY c.n", Scope.range("0"));
                List<JsonNode> got = drain(engine, "SELECT c.id, c.n FROM c ORDER BY c.n", 1000);
                assertThat(got).as("budget %d ms", budget).hasSize(30);
            }
        }
    }

    /**
     * DISTINCT and TOP cannot return part of their result: past the deadline they are a 408, not a wrong answer. A
     * COUNT, a SUM or a GROUP BY of MAX over the whole container (no range or partition key: the answer no SDK merges)
     * is the gateway's 400 with the query plan, which the JS SDK runs range by range.
     */
    @Test
    void aMaterializedQueryThatCannotBePartialIsARequestTimeoutPastTheDeadline() {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        try (Engine engine = Engine.open(new MemoryStore(), CLOCK, noTime)) {
            load(engine, 1, 20, 3);
            for (String q : List.of("SELECT DISTINCT VALUE c.cat FROM c", "SELECT TOP 1 VALUE COUNT(1) FROM c")) {
                assertThatThrownBy(() -> engine.container("db", "c").query(q, Map.of(), RequestOptions.NONE))
                        .as(q).isInstanceOfSatisfying(ServiceException.class,
                                e -> assertThat(e.status()).isEqualTo(408));
            }
            // a COUNT or SUM the pipelines page: the gateway's "run the plan" (the JS SDK then runs it range by range)
            for (String q : List.of("SELECT VALUE SUM(c.n) FROM c", "SELECT VALUE COUNT(1) FROM c",
                    "SELECT c.cat, MAX(c.n) AS m FROM c GROUP BY c.cat")) {
                assertThatThrownBy(() -> engine.container("db", "c").query(q, Map.of(), RequestOptions.NONE))
                        .as(q).isInstanceOfSatisfying(ServiceException.class, e -> {
                            assertThat(e.status()).isEqualTo(400);
                            assertThat(e.additionalErrorInfo()).contains("rewrittenQuery");
                        });
            }
            // on one range too: the subquery sees the whole scope at once, so its COUNT over part of it is no share
            String distinctCount = "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c)";
            assertThatThrownBy(() -> engine.container("db", "c").query(distinctCount, Map.of(),
                    RequestOptions.scoped(Scope.range("0")))).as(distinctCount).isInstanceOfSatisfying(
                            ServiceException.class, e -> assertThat(e.status()).isEqualTo(408));
        }
    }

    /**
     * A COUNT or a GROUP BY whose aggregates are COUNTs answers, at the deadline, the rows of the items read so far
     * with a continuation that resumes at the next item, as the service's pages do, on a range that is part of the
     * query's scope: adding up the pages' COUNTs (and merging the groups met on several pages), as the SDKs do, gives
     * the exact result. With no time per request every page reads one item; the SDK's rewritten forms
     * (query-plans.md §2.11-2.13) are paged the same way. On a range that is the whole scope (one partition, or a
     * partition key) the COUNT is carried on instead and answered once, on the last page: the JS SDK's first request
     * with a partition key passes its pages to the caller unmerged.
     */
    @Test
    void countsAndGroupsPastTheDeadlineArePartialPagesThatAddUpToTheWhole(@TempDir Path dir) {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        try (Engine memory = Engine.open(new MemoryStore(), CLOCK, noTime)) {
            countsAndGroupsAddUp(memory);
        }
        try (Engine rocks = Engine.open(RocksStore.open(dir), CLOCK, noTime)) {
            countsAndGroupsAddUp(rocks);
        }
    }

    private static void countsAndGroupsAddUp(Engine engine) {
        try (Engine timely = engineWith(3, 30, 9)) {
            load(engine, 3, 30, 9);
            List<JsonNode> counts = drain(engine, "SELECT VALUE COUNT(1) FROM c WHERE c.n > 10", 1000);
            assertThat(counts.size()).as("one partial per page").isGreaterThan(20);
            assertThat(counts.stream().mapToLong(JsonNode::asLong).sum())
                    .isEqualTo(whole(timely, "SELECT VALUE COUNT(1) FROM c WHERE c.n > 10").get(0).asLong());
            List<JsonNode> rewritten = drain(engine, "SELECT VALUE [{\"item\": COUNT(1)}] FROM c", 1000);
            assertThat(rewritten.stream().mapToLong(r -> r.get(0).get("item").asLong()).sum()).isEqualTo(30);
            assertThat(groupCounts(drain(engine, "SELECT c.cat, COUNT(1) AS n FROM c GROUP BY c.cat", 2)))
                    .isEqualTo(groupCounts(drain(timely, "SELECT c.cat, COUNT(1) AS n FROM c GROUP BY c.cat", 2)));
            String sdkGroups = "SELECT [{\"item\": c.cat}] AS groupByItems, {\"cat\": c.cat, \"n\": {\"item\":"
                    + " COUNT(1)}} AS payload FROM c GROUP BY c.cat";
            assertThat(drain(engine, sdkGroups, 1000).size()).as("groups repeat across pages").isGreaterThan(3);
            for (String query : List.of("SELECT VALUE COUNT(1) FROM c", "SELECT c.cat, COUNT(1) AS n FROM c"
                    + " GROUP BY c.cat")) {
                assertThat(drainKey(engine, query, "[\"p3\"]")).as(query + ", one partition key")
                        .containsExactlyInAnyOrderElementsOf(drainKey(timely, query, "[\"p3\"]"));
            }
        }
    }

    /** A check on a container of {@code ranges} ranges, with an odd item or none, an unhurried and a hurried engine. */
    private interface ShapeCheck {
        void check(int ranges, String odd, Engine timely, Engine hurried);
    }

    /**
     * Runs {@code check} on one and three ranges, each with no odd item, one whose {@code n} is a string and one whose
     * {@code n} is an object: the same 30 items in an engine with the default limits and in one with {@code hurriedLimits}.
     */
    private static void eachShape(Limits hurriedLimits, ShapeCheck check) {
        for (int ranges : new int[] {1, 3}) {
            for (String odd : new String[] {null, "\"x\"", "{}"}) {
                try (Engine timely = engineWith(ranges, 30, 9);
                        Engine hurried = Engine.open(new MemoryStore(), CLOCK, hurriedLimits)) {
                    load(hurried, ranges, 30, 9);
                    addOdd(odd, timely, hurried);
                    check.check(ranges, odd, timely, hurried);
                }
            }
        }
    }

    /** Adds to each engine an item of group a whose {@code n} is {@code odd} (a JSON value), unless it is null. */
    private static void addOdd(String odd, Engine... engines) {
        if (odd == null) {
            return;
        }
        for (Engine e : engines) {
            e.container("db", "c").create(("{\"id\":\"odd\",\"pk\":\"p1\",\"cat\":\"a\",\"n\":" + odd + "}")
                    .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        }
    }

    /** Every row of a partition key's query, page by page, following continuations. */
    private static List<JsonNode> drainKey(Engine engine, String query, String key) {
        List<JsonNode> rows = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            QueryPage page = engine.container("db", "c").query(query, Map.of(), RequestOptions.scoped(
                    Scope.partitionKey(PartitionKeyValue.fromHeader(key))).withContinuation(token));
            rows.addAll(page.rows());
            token = page.continuation();
            assertThat(++pages).isLessThan(10_000);
        } while (token != null);
        return rows;
    }

    /**
     * A SUM, AVG, MIN or MAX without GROUP BY past the deadline carries its running state in the continuation and
     * answers the range's row on the page that reads its last item, the pages before it the partials of nothing (no
     * row when the range is the whole scope: the JS SDK's optimistic request with a partition key passes its pages on
     * as they are): every range's last page (one item a page) holds the rows it answers with time to spare. That holds for numbers, for a string that makes the
     * sums undefined in every range (the whole scope's state is carried too) and for an object that makes MIN/MAX
     * undefined; with one range (the range is the whole scope) and with three.
     */
    @Test
    void sumsAveragesAndExtremesPastTheDeadlineCarryTheirStateToTheRangesLastPage() {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        List<String> queries = List.of("SELECT VALUE SUM(c.n) FROM c", "SELECT VALUE MIN(c.n) FROM c",
                "SELECT VALUE MAX(c.n) FROM c WHERE c.cat = 'a'", "SELECT VALUE AVG(c.n) FROM c",
                "SELECT VALUE [{\"item\": SUM(c.n), \"isPartial\": true}] FROM c",
                "SELECT VALUE [{\"item\": {\"sum\": SUM(c.n), \"count\": COUNT(c.n)}}] FROM c",
                "SELECT {\"lo\": {\"item\": MIN(c.n), \"item2\": {\"min\": MIN(c.n), \"count\": COUNT(c.n)}},"
                        + " \"k\": {\"item\": COUNT(1)}} AS payload FROM c",
                "SELECT SUM(c.n) AS s, AVG(c.n) AS a, MIN(c.n) AS lo, MAX(c.n) AS hi, COUNT(1) AS k FROM c");
        eachShape(noTime, (ranges, odd, timely, hurried) -> {
            for (String q : queries) {
                ContainerInfo c = hurried.readContainer("db", "c");
                for (PhysicalPartition p : c.partitions().partitions()) {
                    List<List<JsonNode>> pages = pages(hurried, q, p.id());
                    String what = q + ", range " + p.id() + " of " + ranges + ", odd " + odd;
                    assertThat(pages.size()).as(what).isGreaterThan(2);
                    // a row the whole scope leaves out is the partials of nothing on the last page too
                    List<JsonNode> answer = pages(timely, q, p.id()).getFirst();
                    assertThat(pages.getLast()).as(what).containsExactlyElementsOf(
                            answer.isEmpty() ? pages.getFirst() : answer);
                    assertThat(pages.subList(1, pages.size() - 1)).as("%s: the partials of nothing", what)
                            .allSatisfy(page -> assertThat(page).isEqualTo(pages.getFirst()));
                    if (ranges == 1) {
                        assertThat(pages.getFirst()).as("%s: the whole scope's range", what).isEmpty();
                    }
                }
            }
        });
    }

    /**
     * A GROUP BY of SUM, AVG, MIN or MAX past the deadline carries its groups to the range's last page, which answers
     * the range's groups of the whole read (one item a page). A range that is the whole scope answers no row before;
     * the ranges of a wider scope none until the pass over the whole scope they share is done, and then one on every
     * page: the partials of nothing in a group the whole scope shows. That holds for numbers, for a string that makes
     * group a's SUM undefined (its VALUE row left out) and for an object that makes its MIN undefined (left out of
     * its row); with one range and with three.
     */
    @Test
    void groupedSumsAveragesAndExtremesPastTheDeadlineCarryTheirGroupsToTheRangesLastPage() {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        List<String> queries = List.of("SELECT [{\"item\": c.cat}] AS groupByItems,"
                        + " [{\"item\": SUM(c.n), \"isPartial\": true}] AS payload FROM c GROUP BY c.cat",
                "SELECT [{\"item\": c.cat}] AS groupByItems, {\"cat\": c.cat, \"lo\": {\"item\": MIN(c.n),"
                        + " \"item2\": {\"min\": MIN(c.n), \"count\": COUNT(c.n)}}, \"k\": {\"item\": COUNT(1)}}"
                        + " AS payload FROM c GROUP BY c.cat",
                "SELECT c.cat, AVG(c.n) AS a, MAX(c.n) AS hi FROM c GROUP BY c.cat");
        eachShape(noTime, (ranges, odd, timely, hurried) -> {
            for (String q : queries) {
                ContainerInfo c = hurried.readContainer("db", "c");
                Set<JsonNode> shown = new HashSet<>();
                for (PhysicalPartition p : c.partitions().partitions()) {
                    pages(timely, q, p.id()).getFirst().forEach(r -> shown.add(group(r)));
                }
                for (PhysicalPartition p : c.partitions().partitions()) {
                    List<List<JsonNode>> pages = pages(hurried, q, p.id());
                    String what = q + ", range " + p.id() + " of " + ranges + ", odd " + odd;
                    assertThat(pages.size()).as(what).isGreaterThan(2);
                    List<JsonNode> answer = pages(timely, q, p.id()).getFirst();
                    if (!answer.isEmpty()) {
                        assertThat(pages.getLast()).as(what).containsExactlyInAnyOrderElementsOf(answer);
                    }
                    List<List<JsonNode>> carrying = pages.subList(0, pages.size() - 1);
                    int firstRow = 0;
                    while (firstRow < carrying.size() && carrying.get(firstRow).isEmpty()) {
                        firstRow++;
                    }
                    assertThat(firstRow).as("%s: no row before the last page on one range", what)
                            .isEqualTo(ranges == 1 ? carrying.size() : firstRow);
                    assertThat(carrying.subList(firstRow, carrying.size())).as("%s: a row on every page"
                            + " once a page has one", what).allSatisfy(page -> assertThat(page).hasSize(1));
                    assertThat(carrying.stream().flatMap(List::stream).map(QueryExecutorTest::group))
                            .as("%s: in groups the whole scope shows", what).allMatch(shown::contains);
                }
            }
        });
    }

    /**
     * The ranges of a GROUP BY read on one pass over the whole scope even when their first pages straddle a write: a
     * range's first page joins the query's pass that is running, so once another range's pages have finished it, the
     * range's next page has its row (with a pass of its own it would answer nothing for as long again).
     */
    @Test
    void aGroupedRangeWhoseFirstPageFollowsAWriteJoinsTheRunningPass() {
        Limits noTime = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ZERO).build();
        try (Engine engine = Engine.open(new MemoryStore(), CLOCK, noTime)) {
            load(engine, 3, 30, 9);
            String q = "SELECT c.cat, SUM(c.n) AS s FROM c GROUP BY c.cat";
            ContainerInfo c = engine.readContainer("db", "c");
            String first = c.partitions().partitions().get(0).id();
            String second = c.partitions().partitions().get(1).id();
            QueryPage a = page(engine, q, first, null);
            engine.container("db", "c").create("{\"id\":\"late\",\"pk\":\"p1\",\"cat\":\"a\",\"n\":1}"
                    .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            QueryPage b = page(engine, q, second, null);
            assertThat(b.rows()).as("the pass is not done").isEmpty();
            for (String token = a.continuation(); token != null; token = page(engine, q, first, token).continuation()) {
                // the first range's pages read the pass to its end, then the range's own items
            }
            assertThat(page(engine, q, second, b.continuation()).rows()).as("the shared pass is done").hasSize(1);
        }
    }

    private static QueryPage page(Engine engine, String query, String range, String token) {
        return engine.container("db", "c").query(query, Map.of(), RequestOptions.scoped(Scope.range(range))
                .withContinuation(token));
    }

    /** A GROUP BY row's group: its groupByItems, or its {@code cat}. */
    private static JsonNode group(JsonNode row) {
        return row.has("groupByItems") ? row.get("groupByItems") : row.get("cat");
    }

    /**
     * The deadline passing while an item's JOIN rows are bound ends the page between items like any other read, not
     * with a 408: the evaluator's own check counts one item's rows only (it is for a single item's runaway product).
     * Items of 700 tags each and a clock that moves one millisecond per read put the deadline everywhere in the scan
     * across the budgets tried.
     */
    @Test
    void aDeadlinePassingDuringAnItemsJoinEndsThePageBetweenItems() {
        StringBuilder tags = new StringBuilder();
        for (int t = 0; t < 700; t++) {
            tags.append(t == 0 ? "" : ",").append(t);
        }
        for (int budget = 1; budget <= 12; budget++) {
            TickingClock ticking = new TickingClock(CLOCK.instant(), false);
            Limits limits = Limits.DEFAULTS.toBuilder().maxRequestExecution(java.time.Duration.ofMillis(budget))
                    .build();
            try (Engine engine = Engine.open(new MemoryStore(), ticking, limits)) {
                engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
                engine.createContainer("db", (ObjectNode) Json.parse(
                        "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t"), Throughput.NONE, 1);
                for (int i = 0; i < 6; i++) {
                    engine.container("db", "c").create(("{\"id\":\"i" + i + "\",\"pk\":\"p\",\"tags\":[" + tags
                            + "]}").getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
                }
                ticking.start();
                assertThat(drain(engine, "SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags", 1000).stream()
                        .mapToLong(JsonNode::asLong).sum()).as("budget %d ms", budget).isEqualTo(6 * 700);
                assertThat(drain(engine, "SELECT VALUE t FROM c JOIN t IN c.tags WHERE t < 0", 1000))
                        .as("budget %d ms", budget).isEmpty();
            }
        }
    }

    /** The COUNT of each group over every page's rows of {@code SELECT c.cat, COUNT(1) AS n ...}. */
    private static Map<String, Long> groupCounts(List<JsonNode> rows) {
        Map<String, Long> out = new java.util.TreeMap<>();
        rows.forEach(r -> out.merge(r.get("cat").asText(), r.get("n").asLong(), Long::sum));
        return out;
    }

    @Test
    void topAndOffsetLimitHoldAcrossPages() {
        try (Engine engine = engineWith(1, 100, 7)) {
            assertThat(drain(engine, "SELECT TOP 7 c.id FROM c", 2)).hasSize(7);
            assertThat(drain(engine, "SELECT c.id FROM c OFFSET 95 LIMIT 10", 3)).hasSize(5);
        }
    }

    @Test
    void writesBetweenPagesNeitherLoseNorRepeatRows() {
        try (Engine engine = engineWith(1, 50, 3)) {
            ContainerInfo c = engine.readContainer("db", "c");
            List<String> seen = new ArrayList<>();
            String token = null;
            int extra = 0;
            do {
                QueryPage page = engine.container(c).query("SELECT VALUE c.id FROM c", Map.of(), RequestOptions.scoped(Scope.range("0")).withContinuation(token).withMaxItemCount(5));
                page.rows().forEach(r -> seen.add(r.asText()));
                token = page.continuation();
                engine.container("db", "c").create(("{\"id\":\"new" + extra++ + "\",\"pk\":\"zz\"}")
                        .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            } while (token != null);
            assertThat(seen).doesNotHaveDuplicates();
            for (int i = 0; i < 50; i++) {
                assertThat(seen).contains("i" + i);
            }
        }
    }

    @Test
    void aPartitionKeyScopeSeesOnlyItsLogicalPartition() {
        try (Engine engine = engineWith(3, 100, 11)) {
            ContainerInfo c = engine.readContainer("db", "c");
            List<JsonNode> rows = engine.container(c).query("SELECT VALUE c.pk FROM c", Map.of(), RequestOptions.scoped(Scope.partitionKey(PartitionKeyValue.fromHeader("[\"p3\"]")))).rows();
            assertThat(rows).isNotEmpty().allSatisfy(r -> assertThat(r.asText()).isEqualTo("p3"));
            assertThat(rows).hasSize(whole(engine, "SELECT VALUE c.pk FROM c WHERE c.pk = 'p3'").size());
        }
    }

    @Test
    void badQueriesAndTokensAre400s() {
        try (Engine engine = engineWith(1, 5, 1)) {
            ContainerInfo c = engine.readContainer("db", "c");
            for (String bad : List.of("SELEC * FROM c", "SELECT * FROM c WHERE", "", "SELECT TOP @missing * FROM c")) {
                assertThatThrownBy(() -> engine.container(c).query(bad, Map.of(), RequestOptions.scoped(Scope.CONTAINER).withMaxItemCount(10)))
                        .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            }
            assertThatThrownBy(() -> engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.CONTAINER).withContinuation("garbage").withMaxItemCount(10)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            // a carried aggregate state that is not one this query wrote, or on a query that carries none
            for (String[] bad : new String[][] {{"SELECT VALUE SUM(c.n) FROM c", "A.AA.bm9wZQ"},
                    {"SELECT VALUE SUM(c.n) FROM c", "A.AA.eyJsIjpbWzEsMl1dfQ"},
                    {"SELECT VALUE COUNT(1) FROM c", "A.AA.eyJsIjpbMV19"}}) {
                assertThatThrownBy(() -> engine.container(c).query(bad[0], Map.of(),
                        RequestOptions.scoped(Scope.range("0")).withContinuation(bad[1])))
                        .as(bad[1]).isInstanceOfSatisfying(ServiceException.class,
                                e -> assertThat(e.status()).isEqualTo(400));
            }
            assertThatThrownBy(() -> engine.container(c).query("SELECT * FROM c", Map.of(), RequestOptions.scoped(Scope.range("9")).withMaxItemCount(10)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(410));
        }
    }

    @Test
    void rocksStoreServesTheSamePages(@TempDir Path dir) {
        try (Engine rocks = Engine.open(RocksStore.open(dir), CLOCK, Limits.DEFAULTS);
                Engine memory = engineWith(2, 80, 5)) {
            load(rocks, 2, 80, 5);
            for (String q : QUERIES) {
                // each engine is a new account, with rids of its own
                List<JsonNode> a = withoutRids(drain(rocks, q, 7));
                List<JsonNode> b = withoutRids(drain(memory, q, 7));
                assertThat(a).as(q).containsExactlyInAnyOrderElementsOf(b);
            }
        }
    }

    private static List<JsonNode> withoutRids(List<JsonNode> rows) {
        for (JsonNode row : rows) {
            if (row instanceof ObjectNode o) {
                o.remove(List.of("_rid", "_self"));
            }
        }
        return rows;
    }
}
