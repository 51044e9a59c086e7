package dev.partita.server;

import static dev.partita.server.FuzzValues.pick;

import java.util.List;
import java.util.Random;

/**
 * Generates the fuzz test's HTTP requests: random paths, headers, bodies, queries and batches, mostly signed and aimed
 * at real resources ({@code dbs/fuzz/colls/c} with several physical partitions, {@code dbs/fuzz/colls/h} with a
 * hierarchical key). Never aims at Partita's control API (fault rules would make 5xx on purpose), and never deletes
 * the database or its containers (the rest of the run would only see 404s).
 */
final class FuzzRequests {
    static final String DB = "fuzz";
    static final List<String> CONTAINERS = List.of("c", "h");
    static final List<String> KINDS = List.of("path", "headers", "body", "query", "batch", "auth");

    private final String dbRid;
    private final String collRid;

    FuzzRequests(String dbRid, String collRid) {
        this.dbRid = dbRid;
        this.collRid = collRid;
    }

    FuzzRequest next(Random r) {
        int roll = r.nextInt(100);
        String kind = roll < 15 ? "path" : roll < 35 ? "headers" : roll < 55 ? "body" : roll < 80 ? "query"
                : roll < 92 ? "batch" : "auth";
        FuzzRequest q = switch (kind) {
            case "path" -> withPath(r, new FuzzRequest(kind, method(r), r.nextInt(3) == 0 ? resourcePath(r)
                    : oddPath(r)));
            case "headers" -> randomHeaders(r, new FuzzRequest(kind, method(r), resourcePath(r)));
            case "body" -> body(r);
            case "query" -> query(r);
            case "batch" -> batch(r);
            default -> auth(r);
        };
        if (q.method.equals("DELETE") && protectedTarget(q.path)) {
            q.method = "GET";
        }
        return q;
    }

    private static boolean protectedTarget(String path) {
        String p = path.replaceAll("/+$", "").replaceAll("//+", "/");
        return p.equals("/dbs/" + DB) || p.startsWith("/dbs/" + DB + "/colls/") && p.split("/").length <= 5
                || p.contains("%") || !p.startsWith("/dbs/" + DB + "/");
    }

    private static String method(Random r) {
        int roll = r.nextInt(100);
        return roll < 35 ? "GET" : roll < 60 ? "POST" : roll < 75 ? "PUT" : roll < 85 ? "DELETE" : roll < 93
                ? "PATCH" : roll < 96 ? "HEAD" : roll < 98 ? "OPTIONS" : pick(r, List.of("TRACE", "FOO", "get"));
    }

    private FuzzRequest withPath(Random r, FuzzRequest q) {
        if (q.method.equals("POST") || q.method.equals("PUT") || q.method.equals("PATCH")) {
            q.header("Content-Type", "application/json").body(FuzzValues.json(r, 3));
        }
        if (r.nextBoolean()) {
            q.header("x-ms-documentdb-partitionkey", "[\"p" + r.nextInt(10) + "\"]");
        }
        return q;
    }

    /** A path of a known shape, each name real, random or rid-like. */
    String resourcePath(Random r) {
        String db = r.nextInt(5) == 0 ? name(r) : r.nextInt(6) == 0 ? dbRid : DB;
        String coll = r.nextInt(5) == 0 ? name(r) : db.equals(dbRid) ? collRid : pick(r, CONTAINERS);
        String base = "/dbs/" + db + "/colls/" + coll;
        return switch (r.nextInt(16)) {
            case 0 -> "/";
            case 1 -> "/dbs";
            case 2 -> "/dbs/" + db;
            case 3 -> "/dbs/" + db + "/colls";
            case 4 -> base;
            case 5, 6 -> base + "/docs";
            case 7, 8, 9 -> base + "/docs/" + itemId(r);
            case 10 -> base + "/pkranges" + (r.nextBoolean() ? "/" + name(r) : "");
            case 11 -> base + "/" + pick(r, List.of("sprocs", "triggers", "udfs", "conflicts"))
                    + (r.nextBoolean() ? "/" + name(r) : "");
            case 12 -> "/dbs/" + db + "/users" + (r.nextBoolean() ? "/" + name(r) + "/permissions"
                    + (r.nextBoolean() ? "/" + name(r) : "") : "");
            case 13 -> "/offers" + (r.nextBoolean() ? "/" + name(r) : "");
            case 14 -> base + "/operations/partitionkeydelete";
            default -> base + "/docs/" + name(r);
        };
    }

    static String itemId(Random r) {
        return "i" + r.nextInt(60);
    }

    /** A path segment: odd characters percent-encoded or not, long, or rid-like. */
    String name(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> ridLike(r);
            case 1 -> encode(FuzzValues.string(r));
            case 2 -> pick(r, List.of("%zz", "%", "%2F", "%00", "%C3%28", "%E2%82%AC", "%2e%2e", "a%20b", "+", "a+b",
                    "%25", "%FF%FE", "%ed%a0%80", "..", ".", ";", "a;b=c", "~", "*"));
            case 3 -> "x".repeat(1 + r.nextInt(r.nextInt(20) == 0 ? 9000 : 300));
            default -> "n" + r.nextInt(20);
        };
    }

    private String ridLike(Random r) {
        String base = switch (r.nextInt(4)) {
            case 0 -> dbRid;
            case 1 -> collRid;
            case 2 -> collRid + "AAAAAAAAAA==";
            default -> "";
        };
        StringBuilder sb = new StringBuilder(base);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-=";
        if (sb.isEmpty() || r.nextBoolean()) {
            for (int i = 0, n = r.nextInt(24); i < n; i++) {
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
        } else {
            sb.setCharAt(r.nextInt(sb.length()), alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.isEmpty() ? "A" : sb.toString();
    }

    static String encode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c > 32 && c < 127 && c != '%' && c != '/' && c != '#' && c != '?') {
                sb.append((char) c);
            } else {
                sb.append(String.format("%%%02X", c));
            }
        }
        return sb.toString();
    }

    private String oddPath(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "/" + "dbs/".repeat(1 + r.nextInt(20));
            case 1 -> "//dbs//" + DB + "///colls/c//docs//" + itemId(r) + "/";
            case 2 -> "http://127.0.0.1/dbs/" + DB + "/colls/c/docs/" + itemId(r);
            case 3 -> "*";
            case 4 -> "/dbs/" + DB + "/colls/c/docs/" + "y".repeat(1 + r.nextInt(r.nextInt(10) == 0 ? 70_000 : 3000));
            default -> {
                StringBuilder sb = new StringBuilder();
                for (int i = 0, n = r.nextInt(9); i < n; i++) {
                    sb.append('/').append(r.nextInt(3) == 0 ? pick(r, List.of("dbs", "colls", "docs", "users",
                            "offers", "pkranges", "sprocs", "")) : name(r));
                }
                yield sb.isEmpty() ? "/" : sb.toString();
            }
        };
    }

    /** Headers the gateway reads, each present or not, with values valid or not. */
    private FuzzRequest randomHeaders(Random r, FuzzRequest q) {
        for (int i = 0; i < 4 + r.nextInt(6); i++) {
            String[] h = header(r);
            q.header(h[0], h[1]);
        }
        if (r.nextInt(25) == 0) {
            for (int i = 0, n = r.nextInt(400); i < n; i++) {
                q.header("x-fuzz-" + i, "v".repeat(r.nextInt(200)));
            }
        }
        if (!q.method.equals("GET") && !q.method.equals("DELETE") && r.nextBoolean()) {
            q.body(r.nextBoolean() ? item(r) : FuzzQueries.body(r));
        }
        return q;
    }

    static String[] header(Random r) {
        return switch (r.nextInt(20)) {
            case 0, 1 -> new String[] {"x-ms-documentdb-partitionkey", partitionKey(r)};
            case 2 -> new String[] {"x-ms-continuation", pick(r, List.of("", "abc", "[]", "{}", "null",
                    "[{\"token\":\"1\",\"range\":{\"min\":\"\",\"max\":\"FF\"}}]", "{\"compositeToken\":\"x\"}",
                    "-RID:~AAAA#RT:1#TRC:10#ISV:2#IEO:65567", FuzzValues.json(r, 3)))};
            case 3 -> new String[] {"x-ms-max-item-count", pick(r, List.of("-1", "0", "1", "5", "-7", "abc",
                    "99999999999", "1.5", "", "2147483647", "1000000"))};
            case 4 -> new String[] {"x-ms-consistency-level", pick(r, List.of("Strong", "Session", "Eventual",
                    "BoundedStaleness", "ConsistentPrefix", "eventual", "Nope", ""))};
            case 5 -> new String[] {"x-ms-cosmos-priority-level", pick(r, List.of("High", "Low", "low", "x", ""))};
            case 6 -> new String[] {r.nextBoolean() ? "If-Match" : "If-None-Match", pick(r, List.of("*", "\"x\"",
                    "\"00000000-0000-0000-0000-000000000000\"", "", "W/\"1\"", "garbage, *"))};
            case 7 -> new String[] {"A-IM", pick(r, List.of("Incremental feed", "Full-Fidelity Feed",
                    "All Versions and Deletes", "x", ""))};
            case 8 -> new String[] {"x-ms-documentdb-partitionkeyrangeid", pick(r, List.of("0", "1", "2", "3", "4",
                    "99", "-1", "abc", ",", "x,1", "", "00"))};
            case 9 -> new String[] {r.nextBoolean() ? "x-ms-start-epk" : "x-ms-end-epk", pick(r, List.of("", "FF",
                    "00", "3F", "zz", "05C1DFFFFFFFFC", "-", "0".repeat(100), "FF".repeat(40)))};
            case 10 -> new String[] {"Content-Type", pick(r, List.of("application/json", "application/query+json",
                    "application/json-patch+json", "text/plain", "multipart/form-data; boundary=x", "", ";;",
                    "application/json; charset=utf-16"))};
            case 11 -> new String[] {pick(r, List.of("x-ms-documentdb-isquery", "x-ms-documentdb-query",
                    "x-ms-cosmos-is-query-plan-request", "x-ms-cosmos-is-batch-request", "x-ms-cosmos-batch-atomic",
                    "x-ms-documentdb-is-upsert", "x-ms-documentdb-populatequotainfo",
                    "x-ms-documentdb-script-enable-logging")), pick(r, List.of("true", "True", "false", "1", "x", ""))};
            case 12 -> new String[] {"x-ms-session-token", pick(r, List.of("0:1#5", "0:-1#1", "x", "1:1#1#3=4",
                    "", "0:1#99999999999999999999"))};
            case 13 -> new String[] {"x-ms-offer-throughput", pick(r, List.of("400", "0", "-1", "x", "1000000000",
                    "10000"))};
            case 14 -> new String[] {"x-ms-cosmos-offer-autopilot-settings", FuzzValues.json(r, 2)};
            case 15 -> new String[] {"If-Modified-Since", pick(r, List.of("Mon, 01 Jan 2024 00:00:00 GMT", "x",
                    "now"))};
            case 16 -> new String[] {"x-ms-cosmos-changefeed-wire-format-version", pick(r, List.of("2021-09-15",
                    "x"))};
            case 17 -> new String[] {pick(r, List.of("x-ms-documentdb-pre-trigger-include",
                    "x-ms-documentdb-post-trigger-include")), pick(r, List.of("t", "", "a,b", "n1"))};
            case 18 -> new String[] {"x-ms-documentdb-expiry-seconds", pick(r, List.of("1", "-1", "x", "0"))};
            default -> new String[] {"x-ms-cosmos-supported-query-features", pick(r, List.of("", "x",
                    "Aggregate, CompositeAggregate, Distinct, GroupBy, MultipleAggregates, MultipleOrderBy,"
                            + " OffsetAndLimit, OrderBy, Top, NonValueAggregate, DCount, NonStreamingOrderBy"))};
        };
    }

    static String partitionKey(Random r) {
        return pick(r, List.of("[\"p" + r.nextInt(10) + "\"]", "[\"p" + r.nextInt(10) + "\",\"q\"]", "[1]", "[true]",
                "[null]", "[{}]", "[]", "[[\"a\"]]", "[\"a\",\"b\",\"c\"]", "\"p1\"", "[", "{}", "p1", "[1e400]",
                "[NaN]", "[-0]", "[9007199254740993]", "[\"" + "k".repeat(3000) + "\"]", "[\"\\ud800\"]",
                "[\"\u20ac\"]", "[" + FuzzValues.json(r, 2) + "]", FuzzValues.json(r, 2), "[\"p1\"] trailing"));
    }

    /** An item body: usually with id and pk, fields of any type; sometimes of the wrong shape. */
    static String item(Random r) {
        String id = r.nextInt(4) == 0 ? FuzzValues.json(r, 1) : FuzzValues.quote(r.nextInt(5) == 0
                ? FuzzValues.string(r) : itemId(r));
        String pk = r.nextInt(4) == 0 ? FuzzValues.json(r, 1) : "\"p" + r.nextInt(10) + "\"";
        return switch (r.nextInt(12)) {
            case 0 -> FuzzValues.deep(r, 10 + r.nextInt(r.nextInt(8) == 0 ? 20_000 : 200));
            case 1 -> FuzzValues.broken(r);
            case 2 -> FuzzValues.json(r, 3);
            case 3 -> "{\"id\":" + id + ",\"pk\":" + pk + ",\"big\":\"" + "z".repeat(r.nextInt(10) == 0 ? 2_200_000
                    : r.nextInt(300_000)) + "\"}";
            default -> "{\"id\":" + id + ",\"pk\":" + pk + ",\"a\":" + FuzzValues.json(r, 3) + ",\"tags\":"
                    + FuzzValues.json(r, 2) + (r.nextBoolean() ? "" : "," + FuzzValues.object(r, 2, 3).substring(1))
                    + (r.nextBoolean() ? "}" : "");
        };
    }

    private FuzzRequest body(Random r) {
        String coll = pick(r, CONTAINERS);
        String base = "/dbs/" + DB + "/colls/" + coll + "/docs";
        FuzzRequest q = switch (r.nextInt(5)) {
            case 0, 1 -> new FuzzRequest("body", "POST", base);
            case 2 -> new FuzzRequest("body", "PUT", base + "/" + itemId(r));
            case 3 -> new FuzzRequest("body", "PATCH", base + "/" + itemId(r));
            default -> new FuzzRequest("body", pick(r, List.of("POST", "PUT")), "/dbs/" + DB
                    + pick(r, List.of("", "/colls", "/colls/c", "/users", "/colls/c/sprocs", "/colls/c/udfs")));
        };
        q.header("Content-Type", q.method.equals("PATCH") ? "application/json-patch+json" : "application/json");
        q.header("x-ms-documentdb-partitionkey", r.nextInt(5) == 0 ? partitionKey(r) : coll.equals("h")
                ? "[\"p" + r.nextInt(10) + "\",\"q\"]" : "[\"p" + r.nextInt(10) + "\"]");
        if (r.nextInt(3) == 0) {
            q.header("x-ms-documentdb-is-upsert", "True");
        }
        if (r.nextInt(4) == 0) {
            String[] h = header(r);
            q.header(h[0], h[1]);
        }
        return q.body(q.method.equals("PATCH") ? patch(r) : r.nextInt(10) == 0 ? FuzzValues.string(r) : item(r));
    }

    private static String patch(Random r) {
        if (r.nextInt(5) == 0) {
            return FuzzValues.json(r, 3);
        }
        StringBuilder sb = new StringBuilder("{\"operations\":[");
        for (int i = 0, n = r.nextInt(r.nextInt(10) == 0 ? 30 : 4); i < n; i++) {
            sb.append(i > 0 ? "," : "").append("{\"op\":\"").append(pick(r, List.of("add", "set", "replace",
                    "remove", "incr", "move", "copy", "x"))).append("\",\"path\":").append(r.nextBoolean()
                    ? FuzzValues.quote(pick(r, List.of("/a", "/a/b", "/tags/0", "/tags/-", "/id", "/pk", "", "/",
                    "a", "/a/99", "/_ts", "/x~1y"))) : FuzzValues.json(r, 1));
            if (r.nextInt(4) > 0) {
                sb.append(",\"value\":").append(FuzzValues.json(r, 2));
            }
            if (r.nextInt(8) == 0) {
                sb.append(",\"from\":").append(FuzzValues.quote("/a"));
            }
            sb.append('}');
        }
        sb.append(']');
        if (r.nextInt(4) == 0) {
            sb.append(",\"condition\":").append(FuzzValues.quote("FROM c WHERE " + FuzzQueries.expr(r, 2)));
        }
        return sb.append('}').toString();
    }

    private FuzzRequest query(Random r) {
        String coll = pick(r, CONTAINERS);
        String path = r.nextInt(10) == 0 ? pick(r, List.of("/dbs", "/dbs/" + DB + "/colls", "/offers",
                "/dbs/" + DB + "/users")) : "/dbs/" + DB + "/colls/" + coll + "/docs";
        FuzzRequest q = new FuzzRequest("query", "POST", path)
                .header("Content-Type", r.nextInt(10) == 0 ? "application/json" : "application/query+json");
        if (r.nextInt(4) == 0) {
            q.header("x-ms-cosmos-is-query-plan-request", "True").header("x-ms-cosmos-supported-query-features",
                    "Aggregate, CompositeAggregate, Distinct, GroupBy, MultipleAggregates, MultipleOrderBy,"
                            + " OffsetAndLimit, OrderBy, Top, NonValueAggregate, DCount, NonStreamingOrderBy");
        } else {
            q.header("x-ms-documentdb-isquery", "True");
            if (r.nextInt(3) == 0) {
                q.header("x-ms-documentdb-partitionkey", partitionKey(r));
            } else if (r.nextBoolean()) {
                q.header("x-ms-documentdb-partitionkeyrangeid", String.valueOf(r.nextInt(6)));
            }
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            String[] h = header(r);
            q.header(h[0], h[1]);
        }
        return q.body(FuzzQueries.body(r));
    }

    private FuzzRequest batch(Random r) {
        String coll = pick(r, CONTAINERS);
        boolean atomic = r.nextBoolean();
        FuzzRequest q = new FuzzRequest("batch", "POST", "/dbs/" + DB + "/colls/" + coll + "/docs")
                .header("Content-Type", "application/json").header("x-ms-cosmos-is-batch-request", "True")
                .header("x-ms-cosmos-batch-atomic", atomic ? "True" : pick(r, List.of("False", "x")));
        String pk = coll.equals("h") ? "[\"p" + r.nextInt(10) + "\",\"q\"]" : "[\"p" + r.nextInt(10) + "\"]";
        if (atomic || r.nextInt(3) == 0) {
            q.header("x-ms-documentdb-partitionkey", r.nextInt(6) == 0 ? partitionKey(r) : pk);
        }
        if (r.nextBoolean()) {
            q.header("x-ms-documentdb-partitionkeyrangeid", String.valueOf(r.nextInt(6)));
        }
        if (r.nextInt(8) == 0) {
            return q.body(r.nextBoolean() ? FuzzValues.json(r, 3) : FuzzValues.broken(r));
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0, n = r.nextInt(r.nextInt(10) == 0 ? 150 : 6); i < n; i++) {
            sb.append(i > 0 ? "," : "");
            if (r.nextInt(10) == 0) {
                sb.append(FuzzValues.json(r, 2));
                continue;
            }
            sb.append("{\"operationType\":").append(FuzzValues.quote(pick(r, List.of("Create", "Upsert", "Read",
                    "Delete", "Replace", "Patch", "create", "Nope")))).append(",\"id\":")
                    .append(r.nextInt(5) == 0 ? FuzzValues.json(r, 1) : FuzzValues.quote(itemId(r)));
            if (r.nextInt(3) > 0) {
                sb.append(",\"partitionKey\":").append(r.nextInt(4) == 0 ? FuzzValues.json(r, 1)
                        : FuzzValues.quote(pk));
            }
            if (r.nextInt(3) > 0) {
                sb.append(",\"resourceBody\":").append(r.nextInt(4) == 0 ? FuzzValues.json(r, 2) : item(r));
            }
            if (r.nextInt(6) == 0) {
                sb.append(",\"ifMatch\":").append(FuzzValues.json(r, 1));
            }
            sb.append('}');
        }
        return q.body(sb.append(']').toString());
    }

    private FuzzRequest auth(Random r) {
        FuzzRequest q = switch (r.nextInt(3)) {
            case 0 -> query(r);
            case 1 -> body(r);
            default -> randomHeaders(r, new FuzzRequest("auth", method(r), resourcePath(r)));
        };
        FuzzRequest out = new FuzzRequest("auth", q.method, q.path);
        out.headers.addAll(q.headers);
        out.body = q.body;
        out.auth = pick(r, List.of(FuzzRequest.Auth.values()).subList(1, 4));
        switch (r.nextInt(4)) {
            case 0 -> out.date = null;
            case 1 -> out.date = pick(r, List.of("", "yesterday", "Mon, 01 Jan 2001 00:00:00 GMT",
                    "Thu, 01 Jan 2099 00:00:00 GMT"));
            default -> {
            }
        }
        if (r.nextInt(4) == 0) {
            out.auth = FuzzRequest.Auth.SIGNED;
        }
        return out;
    }
}
