package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.partita.sql.plan.PlanTestData.LENIENT;
import static dev.partita.sql.plan.PlanTestData.PK;
import static dev.partita.sql.plan.PlanTestData.rid;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * End-to-end: for random datasets split over 3 ranges (by partition key, as EPK routing does), every query shape
 * is planned, each range runs the plan's text with this module's evaluator, the rows are merged like the Java SDK
 * (see {@link SdkPipeline}), and the result must equal the user's query run over all items at once: the same
 * sequence with ORDER BY, the same multiset otherwise. ORDER BY plans are also resumed from every possible
 * continuation point with the SDK's range filters ({@link ResumeFilters}).
 * <p>
 * Datasets: sort keys and MIN/MAX arguments are primitives or undefined (the SDK's ItemComparator cannot compare two
 * arrays or two objects); SUM/AVG arguments are numbers or undefined (a range whose SUM/AVG is undefined because of
 * a non-number is skipped by the SDK, so the merged result is not the single-partition result: query-plans.md
 * §2.11). Rids grow across ranges in the first ORDER BY key's direction so that ties are ordered the same way
 * in the merge (by range) as in one evaluation (by rid).
 */
class PlanSimulationTest {
    static final List<String> QUERIES = List.of(
            // ORDER BY
            "SELECT * FROM c ORDER BY c.n",
            "SELECT c.id, c.n FROM c ORDER BY c.n DESC",
            "SELECT VALUE c.id FROM c WHERE c.m >= 1 ORDER BY c.cat, c.n DESC",
            "SELECT c.id FROM c ORDER BY c.n DESC, c.m ASC",
            "SELECT c.id, c.cat FROM c ORDER BY c.cat DESC, c.m DESC, c.id",
            "SELECT VALUE c.n FROM c ORDER BY c.n",
            "SELECT c.id, t FROM c JOIN t IN c.tags ORDER BY t",
            "SELECT TOP 5 c.id, c.n FROM c ORDER BY c.n",
            "SELECT TOP 3 VALUE c.id FROM c ORDER BY c.cat DESC",
            "SELECT c.id FROM c ORDER BY c.m OFFSET 2 LIMIT 4",
            "SELECT c.id FROM c WHERE c.n > 0 ORDER BY c.id DESC OFFSET 1 LIMIT 3",
            "SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.cat",
            "SELECT DISTINCT c.m FROM c ORDER BY c.m DESC",
            "SELECT DISTINCT VALUE c.m FROM c ORDER BY c.n",
            "SELECT DISTINCT TOP 2 VALUE c.cat FROM c ORDER BY c.cat",
            "SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.cat OFFSET 1 LIMIT 2",
            // TOP, OFFSET/LIMIT, DISTINCT without ORDER BY
            "SELECT TOP 4 c.id FROM c",
            "SELECT c.id FROM c OFFSET 3 LIMIT 5",
            "SELECT TOP 4 c.id FROM c OFFSET 1 LIMIT 6",
            "SELECT DISTINCT c.cat FROM c",
            "SELECT DISTINCT VALUE c.m FROM c",
            "SELECT DISTINCT TOP 2 c.cat FROM c",
            "SELECT DISTINCT VALUE c.cat FROM c OFFSET 1 LIMIT 2",
            // aggregates
            "SELECT VALUE COUNT(1) FROM c",
            "SELECT VALUE COUNT(c.n) FROM c WHERE c.m > 0",
            "SELECT VALUE SUM(c.v) FROM c",
            "SELECT VALUE AVG(c.v) FROM c",
            "SELECT VALUE MIN(c.n) FROM c",
            "SELECT VALUE MAX(c.cat) FROM c WHERE c.m > 1",
            "SELECT COUNT(1) AS cnt, SUM(c.v) AS total, MIN(c.n) AS lo, MAX(c.n) AS hi, AVG(c.v) AS mean FROM c",
            "SELECT COUNT(1), 'k' AS k FROM c",
            "SELECT TOP 1 VALUE COUNT(1) FROM c",
            "SELECT VALUE COUNT(1) FROM c JOIN t IN c.tags WHERE t > 'b'",
            // GROUP BY
            "SELECT c.cat, COUNT(1) AS cnt, SUM(c.v) AS total, MIN(c.n) AS lo, MAX(c.n) AS hi, AVG(c.v) AS mean "
                    + "FROM c GROUP BY c.cat",
            "SELECT VALUE COUNT(1) FROM c GROUP BY c.cat",
            "SELECT VALUE AVG(c.v) FROM c GROUP BY c.m",
            "SELECT VALUE MIN(c.n) FROM c GROUP BY c.cat",
            "SELECT VALUE c.cat FROM c GROUP BY c.cat",
            "SELECT c.cat, c.m FROM c GROUP BY c.cat, c.m",
            "SELECT UPPER(c.cat) AS u, COUNT(1) AS n FROM c GROUP BY c.cat",
            "SELECT DISTINCT VALUE c.cat FROM c GROUP BY c.cat",
            "SELECT TOP 2 c.cat FROM c GROUP BY c.cat",
            "SELECT t AS tag, COUNT(1) AS n FROM c JOIN t IN c.tags GROUP BY t",
            // DCOUNT
            "SELECT VALUE COUNT(1) FROM (SELECT DISTINCT VALUE c.cat FROM c)",
            "SELECT COUNT(1) AS dc FROM (SELECT DISTINCT c.m FROM c WHERE c.m > 0)",
            // partition-key filters
            "SELECT * FROM c WHERE c.pk = 'p1' ORDER BY c.n",
            "SELECT TOP 2 c.id FROM c WHERE c.pk = 'p3' ORDER BY c.n DESC",
            "SELECT c.id FROM c WHERE c.pk = 'p2' OFFSET 1 LIMIT 2",
            "SELECT VALUE COUNT(1) FROM c WHERE c.pk IN ('p1', 'p2')",
            "SELECT c.id FROM c WHERE c.pk IN ('p0', 'p4') ORDER BY c.m, c.id",
            // subqueries that stay per item
            "SELECT c.id, ARRAY(SELECT VALUE t FROM t IN c.tags WHERE t != 'a') AS rest FROM c ORDER BY c.id",
            "SELECT VALUE x.id FROM (SELECT c.id, c.n FROM c WHERE c.n > 1) AS x ORDER BY x.id");

    static final int RANGES = 3;

    /** A random dataset of up to 30 items, already split over the ranges by partition key. */
    static List<List<JsonNode>> dataset(long seed, boolean descendingRids) {
        Random r = new Random(seed);
        int count = r.nextInt(31);
        List<List<JsonNode>> ranges = new ArrayList<>();
        for (int i = 0; i < RANGES; i++) {
            ranges.add(new ArrayList<>());
        }
        String[] cats = {"a", "b", "c"};
        for (int i = 0; i < count; i++) {
            ObjectNode d = LENIENT.createObjectNode();
            d.put("id", "i" + (char) ('a' + r.nextInt(26)) + i);
            String pk = "p" + r.nextInt(6);
            d.put("pk", pk);
            switch (r.nextInt(8)) {
                case 0 -> { }
                case 1 -> d.putNull("cat");
                case 2 -> d.put("cat", r.nextInt(3));
                default -> d.put("cat", cats[r.nextInt(cats.length)]);
            }
            switch (r.nextInt(10)) {
                case 0 -> { }
                case 1 -> d.putNull("n");
                case 2 -> d.put("n", r.nextBoolean());
                case 3 -> d.put("n", "s" + r.nextInt(3));
                case 4 -> d.put("n", r.nextInt(6) + 0.5);
                default -> d.put("n", r.nextInt(6) - 1);
            }
            if (r.nextInt(5) > 0) {
                d.put("m", r.nextInt(4));
            }
            if (r.nextInt(4) > 0) {
                d.put("v", r.nextInt(3) == 0 ? r.nextInt(20) * 0.25 : r.nextInt(10));
            }
            if (r.nextBoolean()) {
                var tags = d.putArray("tags");
                for (int t = r.nextInt(4); t > 0; t--) {
                    tags.add(cats[r.nextInt(cats.length)]);
                }
            }
            ranges.get(Math.floorMod(pk.hashCode() * 31 + 7, RANGES)).add(d);
        }
        // rids: range by range, in the direction of the first ORDER BY key
        for (int range = 0; range < RANGES; range++) {
            List<JsonNode> items = ranges.get(range);
            for (int k = 0; k < items.size(); k++) {
                long block = descendingRids ? RANGES - range : range + 1;
                ((ObjectNode) items.get(k)).put("_rid", rid(block * 1000 + k));
            }
        }
        return ranges;
    }

    private static boolean firstKeyDescending(String query) {
        var order = Sql.parse(query).orderBy();
        return !order.isEmpty() && order.get(0).descending();
    }

    /** Null when the simulated SDK result equals the single evaluation, else a description of the difference. */
    static String check(String query, List<List<JsonNode>> ranges) {
        List<JsonNode> all = PlanTestData.all(ranges);
        List<JsonNode> expected = Sql.parse(query).execute(all, Map.of(), SdkPipeline.CTX);
        List<JsonNode> actual = PlanTestData.simulate(query, Map.of(), ranges);
        boolean ordered = Sql.parse(query).hasOrderBy();
        boolean same = ordered ? SdkPipeline.canonical(actual).equals(SdkPipeline.canonical(expected))
                : SdkPipeline.multiset(actual).equals(SdkPipeline.multiset(expected));
        return same ? null : query + "\n  expected " + expected + "\n  but got  " + actual;
    }

    @Property(tries = 300)
    void everyShapeMergesToTheSingleEvaluation(@ForAll long seed) {
        for (String q : QUERIES) {
            String diff = check(q, dataset(seed, firstKeyDescending(q)));
            assertThat(diff).as("seed " + seed).isNull();
        }
    }

    @Test
    void theDocDatasetToo() {
        for (String q : QUERIES) {
            // the doc's rids interleave the ranges: renumber them range by range so that ties compare alike
            List<List<JsonNode>> ranges = PlanTestData.docRanges();
            boolean desc = firstKeyDescending(q);
            for (int range = 0; range < ranges.size(); range++) {
                for (int k = 0; k < ranges.get(range).size(); k++) {
                    long block = desc ? RANGES - range : range + 1;
                    ((ObjectNode) ranges.get(range).get(k)).put("_rid", rid(block * 1000 + k));
                }
            }
            assertThat(check(q, ranges)).isNull();
        }
    }

    // ------------------------------------------------------------------ ORDER BY resume (§3)

    @Property(tries = 200)
    void orderByResumesFromEveryContinuationPoint(@ForAll long seed) {
        for (String q : List.of(
                "SELECT * FROM c ORDER BY c.n",
                "SELECT c.id, c.n FROM c ORDER BY c.n DESC",
                "SELECT VALUE c.id FROM c WHERE c.m >= 1 ORDER BY c.cat, c.n DESC",
                "SELECT c.id FROM c ORDER BY c.n DESC, c.m ASC",
                "SELECT c.id, c.cat FROM c ORDER BY c.cat DESC, c.m DESC, c.id",
                "SELECT VALUE c.n FROM c ORDER BY c.n",
                "SELECT c.id FROM c ORDER BY c.m")) {
            resumeEverywhere(q, dataset(seed, firstKeyDescending(q)));
        }
    }

    @Test
    void docDatasetResumes() {
        resumeEverywhere("SELECT * FROM c ORDER BY c.n", PlanTestData.docRanges());
        resumeEverywhere("SELECT c.id, c.n, c.m FROM c ORDER BY c.n DESC, c.m ASC", PlanTestData.docRanges());
    }

    static void resumeEverywhere(String query, List<List<JsonNode>> ranges) {
        ObjectNode info = PlanTestData.plan(query).queryInfo();
        List<Boolean> desc = new ArrayList<>();
        info.get("orderBy").forEach(o -> desc.add(o.asText().equals("Descending")));
        List<String> firstRun = new ArrayList<>();
        ranges.forEach(x -> firstRun.add("true"));
        List<SdkPipeline.MergedRow> full = SdkPipeline.merge(
                SdkPipeline.perRange(query, Map.of(), info, ranges, firstRun), info);
        for (int p = 1; p < full.size(); p++) {
            SdkPipeline.MergedRow token = full.get(p);
            List<String> filters = new ArrayList<>();
            for (int r = 0; r < ranges.size(); r++) {
                filters.add(ResumeFilters.filter(info, token.orderByItems(), r < token.range()));
            }
            List<List<JsonNode>> perRange = SdkPipeline.perRange(query, Map.of(), info, ranges, filters);
            perRange.set(token.range(), ResumeFilters.skipOnTarget(perRange.get(token.range()), token.orderByItems(),
                    token.rid(), desc));
            List<JsonNode> resumed = new ArrayList<>();
            SdkPipeline.merge(perRange, info).forEach(m -> resumed.add(m.row()));
            List<JsonNode> rest = new ArrayList<>();
            full.subList(p, full.size()).forEach(m -> rest.add(m.row()));
            assertThat(resumed).as(query + " resumed at " + p + " with " + filters).isEqualTo(rest);
        }
    }

    @Test
    void tiesWithinARangeFollowTheRidInTheFirstKeysDirection() {
        List<JsonNode> items = new ArrayList<>();
        for (long k : new long[] {5, 1, 9, 3}) {
            items.add(LENIENT.createObjectNode().put("id", "x" + k).put("n", 1).put("_rid", rid(k)));
        }
        items.sort(Comparator.comparing(j -> j.get("id").asText()));
        assertThat(PlanTestData.ids(Sql.parse("SELECT c.id FROM c ORDER BY c.n").execute(items, Map.of(),
                SdkPipeline.CTX))).containsExactly("x1", "x3", "x5", "x9");
        assertThat(PlanTestData.ids(Sql.parse("SELECT c.id FROM c ORDER BY c.n DESC, c.id").execute(items, Map.of(),
                SdkPipeline.CTX))).containsExactly("x1", "x3", "x5", "x9");
        assertThat(PlanTestData.ids(Sql.parse("SELECT c.id FROM c ORDER BY c.n DESC").execute(items, Map.of(),
                SdkPipeline.CTX))).containsExactly("x9", "x5", "x3", "x1");
        assertThat(PlanTestData.ids(Sql.parse("SELECT TOP 2 c.id FROM c ORDER BY c.n DESC").execute(items, Map.of(),
                SdkPipeline.CTX))).containsExactly("x9", "x5");
    }

    @Test
    void thePlannedTextsRunOnPartitionScopedRequestsToo() {
        // §1.3 F5: with the pk option the SDK still sends the rewrite; the engine runs it over that partition
        String q = "SELECT c.id, c.n FROM c ORDER BY c.n";
        List<JsonNode> partition = PlanTestData.docRanges().get(0).stream()
                .filter(d -> d.get("pk").asText().equals("p9")).toList();
        assertThat(SdkPipeline.run(q, Map.of(), PlanTestData.plan(q).queryInfo(), List.of(partition), false)
                .toString()).isEqualTo("[{\"id\":\"d9\",\"n\":3}]");
        assertThat(PK).containsExactly("/pk");
    }
}
