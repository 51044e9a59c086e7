package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random queries through the official SDK give the same rows on a container with one physical partition and on one
 * with five, at page sizes 1, 7 and 1,000, and the same rows as evaluating the query in one go over all documents.
 * This exercises the whole cross-partition path: our query plan, the SDK's client-side pipeline (ORDER BY merge,
 * aggregates, GROUP BY, DISTINCT, TOP, OFFSET/LIMIT) and our per-range continuations.
 *
 * <p>Rows are compared as multisets, except that an ORDER BY's key sequence must match exactly. TOP or OFFSET/LIMIT
 * without ORDER BY picks unspecified rows, so there only the count and membership are checked. The Java SDK turns an
 * undefined aggregate into {@code null} (VALUE) or {@code {}} (alias) where one-go evaluation leaves it out, so those
 * are removed from both sides before comparing with the one-go answer (never between SDK runs).
 */
class QueryPropertySdkTest {
    private static final int DOCS = 60;
    private static final int[] PAGE_SIZES = {1, 7, 1000};
    private static final List<String> ORDER_FIELDS = List.of("n", "m", "cat", "v");

    private static TestServers servers;
    private static CosmosClient client;
    private static CosmosContainer one;
    private static CosmosContainer five;
    private static List<JsonNode> docs;

    @BeforeContainer
    static void start() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        servers = TestServers.http();
        client = servers.client();
        client.createDatabase("props");
        CosmosDatabase db = client.getDatabase("props");
        db.createContainer(properties("one"));
        db.createContainer(properties("five"), ThroughputProperties.createManualThroughput(30_000));
        one = db.getContainer("one");
        five = db.getContainer("five");
        docs = documents(new Random(7));
        for (JsonNode doc : docs) {
            one.createItem(doc);
            five.createItem(doc);
        }
    }

    @AfterContainer
    static void stop() {
        client.close();
        servers.close();
    }

    /** Composite indexes for the two-key ORDER BYs the generator writes (key, then id, same direction). */
    private static CosmosContainerProperties properties(String name) {
        CosmosContainerProperties p = new CosmosContainerProperties(name, "/pk");
        IndexingPolicy policy = new IndexingPolicy();
        List<List<CompositePath>> composites = new ArrayList<>();
        for (String field : ORDER_FIELDS) {
            composites.add(List.of(path("/" + field), path("/id")));
        }
        policy.setCompositeIndexes(composites);
        p.setIndexingPolicy(policy);
        return p;
    }

    private static CompositePath path(String path) {
        return new CompositePath().setPath(path).setOrder(CompositePathSortOrder.ASCENDING);
    }

    @Property(tries = 120, seed = "20261130")
    void oneAndFiveRangesAndEveryPageSizeGiveTheSameRows(@ForAll("queries") GeneratedQuery q) {
        List<JsonNode> oracle = Sql.parse(q.text).execute(docs, q.jsonParams(), EvalContext.of(Clock.systemUTC()));
        List<JsonNode> reference = null;
        for (CosmosContainer container : List.of(one, five)) {
            for (int pageSize : PAGE_SIZES) {
                List<JsonNode> rows = run(container, q, pageSize);
                String where = q.text + " on " + container.getId() + " at page size " + pageSize;
                if (reference == null) {
                    reference = rows;
                    checkAgainstOneGo(q, rows, oracle, where);
                } else {
                    assertSame(q, rows, reference, where);
                }
            }
            // as a web page would: a new query per page, resumed from the user's continuation token (the SDK turns
            // an ORDER BY token into resume filters on the keys, query-plans.md §3.2)
            if (!resumable(q)) {
                continue;
            }
            assertSame(q, runResumingEachPage(container, q, 7), reference,
                    q.text + " on " + container.getId() + " resumed from each page's token");
        }
    }

    /**
     * Queries whose user continuation tokens can be resumed. Not GROUP BY, aggregates or an unordered DISTINCT (no
     * token, as documented), and not an ordered DISTINCT either: the Java SDK 4.81 (DistinctDocumentQueryExecutionContext)
     * starts a resumed query with no last hash of its own, so a resumed page that adds no new value hands out a token
     * without the hash and the value comes back once more on the next resume — a client-side effect that does not
     * depend on the server's pages.
     */
    private static boolean resumable(GeneratedQuery q) {
        String t = q.text.toUpperCase(java.util.Locale.ROOT);
        return !t.contains("DISTINCT") && !t.contains("GROUP BY")
                && !t.matches("(?s).*\\b(COUNT|SUM|AVG|MIN|MAX)\\(.*");
    }

    private static List<JsonNode> runResumingEachPage(CosmosContainer container, GeneratedQuery q, int pageSize) {
        SqlQuerySpec spec = new SqlQuerySpec(q.text);
        List<SqlParameter> params = new ArrayList<>();
        q.params.forEach((name, value) -> params.add(new SqlParameter(name, value)));
        spec.setParameters(params);
        List<JsonNode> rows = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            FeedResponse<JsonNode> page = container.queryItems(spec, new CosmosQueryRequestOptions(), JsonNode.class)
                    .iterableByPage(token, pageSize).iterator().next();
            for (JsonNode row : page.getResults()) {
                rows.add(withoutSystemProperties(row));
            }
            token = page.getContinuationToken();
            assertThat(++pages).isLessThan(1_000);
        } while (token != null);
        return rows;
    }

    private static List<JsonNode> run(CosmosContainer container, GeneratedQuery q, int pageSize) {
        SqlQuerySpec spec = new SqlQuerySpec(q.text);
        List<SqlParameter> params = new ArrayList<>();
        q.params.forEach((name, value) -> params.add(new SqlParameter(name, value)));
        spec.setParameters(params);
        List<JsonNode> rows = new ArrayList<>();
        for (FeedResponse<JsonNode> page : container.queryItems(spec, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(pageSize)) {
            for (JsonNode row : page.getResults()) {
                rows.add(withoutSystemProperties(row));
            }
        }
        return rows;
    }

    private static void checkAgainstOneGo(GeneratedQuery q, List<JsonNode> rows, List<JsonNode> oracle, String where) {
        List<JsonNode> actual = rows.stream().map(QueryPropertySdkTest::withoutUndefinedMarkers)
                .filter(r -> r != null).toList();
        List<JsonNode> expected = oracle.stream().map(QueryPropertySdkTest::withoutSystemProperties)
                .map(QueryPropertySdkTest::withoutUndefinedMarkers).filter(r -> r != null).toList();
        if (q.unspecifiedSubset) {
            assertThat(actual).as(where + ": row count").hasSameSizeAs(expected);
            List<JsonNode> all = Sql.parse(q.unpagedText).execute(docs, q.jsonParams(), EvalContext.of(Clock.systemUTC()))
                    .stream().map(QueryPropertySdkTest::withoutSystemProperties).toList();
            for (JsonNode row : actual) {
                assertThat(all.stream().anyMatch(r -> ConformanceSdkTest.same(r, row))).as(where + ": " + row).isTrue();
            }
            return;
        }
        assertSame(q, actual, expected, where + " (against one-go evaluation)");
    }

    private static void assertSame(GeneratedQuery q, List<JsonNode> actual, List<JsonNode> expected, String where) {
        if (q.unspecifiedSubset) {
            assertThat(actual).as(where + ": row count").hasSameSizeAs(expected);
            return;
        }
        if (q.orderedBy != null) {
            assertThat(actual.stream().map(r -> key(r, q.orderedBy)).toList())
                    .as(where + ": ORDER BY key sequence")
                    .isEqualTo(expected.stream().map(r -> key(r, q.orderedBy)).toList());
        }
        assertThat(ConformanceSdkTest.sameRows(actual, expected, false)).as(where + ": rows " + actual + " vs " + expected)
                .isTrue();
    }

    private static String key(JsonNode row, String field) {
        JsonNode v = row.isObject() ? row.get(field) : row;
        return v == null ? "<undefined>" : v.toString();
    }

    private static JsonNode withoutSystemProperties(JsonNode row) {
        return ConformanceSdkTest.withoutSystemProperties(row);
    }

    private static JsonNode withoutUndefinedMarkers(JsonNode row) {
        return ConformanceSdkTest.withoutUndefinedMarkers(row);
    }

    // ---- data

    private static List<JsonNode> documents(Random r) {
        List<JsonNode> out = new ArrayList<>();
        String[] cats = {"a", "b", "c", "d"};
        String[] tags = {"a", "b", "c", "d", "e"};
        for (int i = 0; i < DOCS; i++) {
            ObjectNode d = Json.NODES.objectNode();
            d.put("id", String.format("d%02d", i));
            d.put("pk", "p" + r.nextInt(6));
            int kind = r.nextInt(20);
            if (kind < 16) {
                d.put("n", r.nextInt(11) - 5);
            } else if (kind == 16) {
                d.put("n", "s" + r.nextInt(3));
            } else if (kind == 17) {
                d.putNull("n");
            } // else: n undefined
            d.put("m", r.nextInt(4));
            if (r.nextInt(8) != 0) {
                d.put("cat", cats[r.nextInt(cats.length)]);
            }
            d.put("v", Math.round(r.nextDouble() * 10_000) / 100.0);
            d.put("flag", r.nextBoolean());
            var array = d.putArray("tags");
            for (int t = r.nextInt(4); t > 0; t--) {
                array.add(tags[r.nextInt(tags.length)]);
            }
            out.add(d);
        }
        return out;
    }

    // ---- queries

    /** A generated query and what may be compared about its answer. */
    record GeneratedQuery(String text, Map<String, Object> params, String orderedBy, boolean unspecifiedSubset,
            String unpagedText) {
        Map<String, JsonNode> jsonParams() {
            Map<String, JsonNode> out = new HashMap<>();
            params.forEach((k, v) -> out.put(k, Json.MAPPER.valueToTree(v)));
            return out;
        }

        @Override
        public String toString() {
            return text + " " + params;
        }
    }

    @Provide
    Arbitrary<GeneratedQuery> queries() {
        return Arbitraries.longs().map(seed -> generate(new Random(seed)));
    }

    static GeneratedQuery generate(Random r) {
        Map<String, Object> params = new HashMap<>();
        String where = filter(r, params);
        return switch (r.nextInt(6)) {
            case 0, 1 -> plain(r, where, params);
            case 2 -> ordered(r, where, params);
            case 3 -> aggregate(r, where, params);
            case 4 -> groupBy(r, where, params);
            default -> distinct(r, where, params);
        };
    }

    private static String filter(Random r, Map<String, Object> params) {
        int atoms = r.nextInt(3);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < atoms; i++) {
            parts.add(switch (r.nextInt(10)) {
                case 0 -> "c.n > " + (r.nextInt(7) - 3);
                case 1 -> {
                    params.put("@m", r.nextInt(4));
                    yield "c.m = @m";
                }
                case 2 -> "c.cat IN ('a', 'c')";
                case 3 -> "IS_DEFINED(c.n)";
                case 4 -> "c.flag = " + r.nextBoolean();
                case 5 -> "ARRAY_CONTAINS(c.tags, '" + (char) ('a' + r.nextInt(5)) + "')";
                case 6 -> {
                    params.put("@pk", "p" + r.nextInt(6));
                    yield "c.pk = @pk";
                }
                case 7 -> "STARTSWITH(c.cat, 'b')";
                case 8 -> "c.v BETWEEN " + r.nextInt(50) + " AND " + (50 + r.nextInt(50));
                default -> "NOT (c.n < " + (r.nextInt(5) - 2) + ")";
            });
        }
        return parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts);
    }

    private static GeneratedQuery plain(Random r, String where, Map<String, Object> params) {
        String projection = switch (r.nextInt(4)) {
            case 0 -> "*";
            case 1 -> "c.id, c.n, c.cat";
            case 2 -> "VALUE c.id";
            default -> "c.id, ARRAY_LENGTH(c.tags) AS t, c.v * 2 AS dv";
        };
        String base = "SELECT " + projection + " FROM c" + where;
        return switch (r.nextInt(3)) {
            case 0 -> new GeneratedQuery("SELECT TOP " + (1 + r.nextInt(10)) + " " + projection + " FROM c" + where,
                    params, null, true, base);
            case 1 -> new GeneratedQuery(base + " OFFSET " + r.nextInt(5) + " LIMIT " + (1 + r.nextInt(10)), params,
                    null, true, base);
            default -> new GeneratedQuery(base, params, null, false, base);
        };
    }

    private static GeneratedQuery ordered(Random r, String where, Map<String, Object> params) {
        String field = ORDER_FIELDS.get(r.nextInt(ORDER_FIELDS.size()));
        String dir = r.nextBoolean() ? "ASC" : "DESC";
        boolean paged = r.nextBoolean();
        // with TOP or OFFSET the rows at the cut must be determined: order by the key and then the id
        String orderBy = paged ? " ORDER BY c." + field + " " + dir + ", c.id " + dir : " ORDER BY c." + field + " " + dir;
        String top = paged && r.nextBoolean() ? "TOP " + (1 + r.nextInt(10)) + " " : "";
        String offset = paged && top.isEmpty() ? " OFFSET " + r.nextInt(6) + " LIMIT " + (1 + r.nextInt(10)) : "";
        String text = "SELECT " + top + "c.id, c." + field + " FROM c" + where + orderBy + offset;
        return new GeneratedQuery(text, params, paged ? "id" : field, false, text);
    }

    private static GeneratedQuery aggregate(Random r, String where, Map<String, Object> params) {
        String text = switch (r.nextInt(6)) {
            case 0 -> "SELECT VALUE COUNT(1) FROM c" + where;
            case 1 -> "SELECT VALUE SUM(c.v) FROM c" + where;
            case 2 -> "SELECT VALUE MIN(c.n) FROM c" + where;
            case 3 -> "SELECT VALUE MAX(c.cat) FROM c" + where;
            case 4 -> "SELECT VALUE AVG(c.m) FROM c" + where;
            default -> "SELECT COUNT(1) AS cnt, SUM(c.m) AS s, MIN(c.v) AS lo, MAX(c.n) AS hi FROM c" + where;
        };
        return new GeneratedQuery(text, params, null, false, text);
    }

    private static GeneratedQuery groupBy(Random r, String where, Map<String, Object> params) {
        String text = switch (r.nextInt(4)) {
            case 0 -> "SELECT c.cat, COUNT(1) AS cnt FROM c" + where + " GROUP BY c.cat";
            case 1 -> "SELECT c.m, SUM(c.v) AS s, MAX(c.n) AS hi FROM c" + where + " GROUP BY c.m";
            case 2 -> "SELECT VALUE COUNT(1) FROM c" + where + " GROUP BY c.flag";
            default -> "SELECT c.m, c.flag FROM c" + where + " GROUP BY c.m, c.flag";
        };
        return new GeneratedQuery(text, params, null, false, text);
    }

    private static GeneratedQuery distinct(Random r, String where, Map<String, Object> params) {
        String text = switch (r.nextInt(4)) {
            case 0 -> "SELECT DISTINCT VALUE c.cat FROM c" + where;
            case 1 -> "SELECT DISTINCT c.m, c.flag FROM c" + where;
            case 2 -> "SELECT DISTINCT VALUE c.m FROM c" + where + " ORDER BY c.m";
            default -> "SELECT DISTINCT VALUE t FROM c JOIN t IN c.tags" + where;
        };
        return new GeneratedQuery(text, params, text.contains("ORDER BY") ? "m" : null, false, text);
    }
}
