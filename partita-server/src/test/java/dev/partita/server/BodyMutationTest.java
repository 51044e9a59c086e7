package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The random fuzz ({@link HttpFuzzTest}) rarely builds a body deep enough to reach a policy's parser. This walks
 * valid bodies of every resource kind and sends each with one node changed — replaced by a value of every other JSON
 * type, or removed — so every field of every policy meets every wrong shape once. Every answer must be below 500,
 * and a resource that was accepted must still read back.
 */
class BodyMutationTest {
    private static final List<JsonNode> ODD = List.of(Json.NODES.nullNode(), Json.NODES.numberNode(-1),
            Json.NODES.numberNode(1.5), Json.NODES.numberNode(1e300), Json.NODES.numberNode(Long.MAX_VALUE),
            Json.NODES.textNode(""), Json.NODES.textNode("x"), Json.NODES.textNode("/"), Json.NODES.booleanNode(true),
            Json.NODES.arrayNode(), Json.NODES.arrayNode().add(Json.NODES.objectNode()), Json.NODES.objectNode());

    private static final String UNCHANGED = "the template unchanged";

    private static final String CONTAINER = """
            {"id":"m","partitionKey":{"paths":["/pk","/q"],"kind":"MultiHash","version":2},
             "defaultTtl":60,
             "uniqueKeyPolicy":{"uniqueKeys":[{"paths":["/u"]}]},
             "conflictResolutionPolicy":{"mode":"LastWriterWins","conflictResolutionPath":"/_ts"},
             "computedProperties":[{"name":"cp","query":"SELECT VALUE LOWER(c.name) FROM c"}],
             "indexingPolicy":{"indexingMode":"consistent","automatic":true,
               "includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/big/?"}],
               "compositeIndexes":[[{"path":"/a","order":"ascending"},{"path":"/b","order":"descending"}]],
               "spatialIndexes":[{"path":"/loc/*","types":["Point","Polygon"]}],
               "vectorIndexes":[{"path":"/v","type":"quantizedFlat"}],
               "fullTextIndexes":[{"path":"/text"}]},
             "vectorEmbeddingPolicy":{"vectorEmbeddings":[
               {"path":"/v","dataType":"float32","distanceFunction":"cosine","dimensions":3}]},
             "fullTextPolicy":{"defaultLanguage":"en-US","fullTextPaths":[{"path":"/text","language":"en-US"}]}}
            """;

    @Test
    void everyWrongShapeOfEveryFieldIsRefusedOrAccepted_neverA5xx() {
        try (TestServers s = TestServers.http()) {
            RawClient raw = new RawClient(s.server.endpoint());
            List<String> failures = new ArrayList<>();
            expect(raw.call("POST", "/dbs").signed("dbs", "").body("{\"id\":\"db\"}").send(), 201);
            expect(raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db").body(CONTAINER).send(), 201);
            expect(raw.call("POST", "/dbs/db/users").signed("users", "dbs/db").body("{\"id\":\"u\"}").send(), 201);

            int[] sent = {0};
            forEachMutation(CONTAINER.replace("\"id\":\"m\"", "\"id\":\"m2\""), (change, body) -> {
                sent[0]++;
                HttpResponse<String> r = raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db")
                        .body(body.toString()).send();
                check(failures, "create container", change, r);
                if (r.statusCode() == 201) {
                    String id = Json.parse(r.body(), "created").get("id").asText();
                    HttpResponse<String> back = raw.call("GET", "/dbs/db/colls/" + id)
                            .signed("colls", "dbs/db/colls/" + id).send();
                    if (back.statusCode() != 200) {
                        failures.add("accepted container does not read back (" + back.statusCode() + "): " + change);
                    }
                    raw.call("DELETE", "/dbs/db/colls/" + id).signed("colls", "dbs/db/colls/" + id).send();
                }
            });
            forEachMutation(CONTAINER, (change, body) -> {
                sent[0]++;
                HttpResponse<String> put = raw.call("PUT", "/dbs/db/colls/m").signed("colls", "dbs/db/colls/m")
                        .body(body.toString()).send();
                check(failures, "replace container", change, put);
            });
            expect(raw.call("POST", "/dbs/db/colls/m/docs").signed("docs", "dbs/db/colls/m")
                    .header("x-ms-documentdb-partitionkey", "[\"a\",\"b\"]")
                    .body("{\"id\":\"i1\",\"pk\":\"a\",\"q\":\"b\",\"a\":1,\"n\":1,\"arr\":[1,2]}").send(), 201);
            expect(raw.call("POST", "/dbs/db/colls/m/sprocs").signed("sprocs", "dbs/db/colls/m").body(
                    "{\"id\":\"run\",\"body\":\"function(x){getContext().getResponse().setBody(x);}\"}").send(), 201);
            String pk = "[\"a\",\"b\"]";
            for (Target t : List.of(
                    new Target("POST", "/dbs/db/colls/m/sprocs", "sprocs", "dbs/db/colls/m", Map.of(),
                            "{\"id\":\"sp\",\"body\":\"function(){getContext().getResponse().setBody(1);}\"}"),
                    new Target("POST", "/dbs/db/colls/m/triggers", "triggers", "dbs/db/colls/m", Map.of(),
                            "{\"id\":\"tr\",\"body\":\"function(){}\",\"triggerType\":\"Pre\","
                                    + "\"triggerOperation\":\"All\"}"),
                    new Target("POST", "/dbs/db/colls/m/udfs", "udfs", "dbs/db/colls/m", Map.of(),
                            "{\"id\":\"f\",\"body\":\"function(x){return x;}\"}"),
                    new Target("POST", "/dbs/db/users/u/permissions", "permissions", "dbs/db/users/u", Map.of(),
                            "{\"id\":\"p\",\"permissionMode\":\"Read\",\"resource\":\"dbs/db/colls/m\","
                                    + "\"resourcePartitionKey\":[\"a\",\"b\"]}"),
                    new Target("POST", "/dbs", "dbs", "", Map.of(), "{\"id\":\"d2\"}"),
                    new Target("POST", "/dbs/db/users", "users", "dbs/db", Map.of(), "{\"id\":\"u2\"}"),
                    new Target("POST", "/dbs/db/colls/m/docs", "docs", "dbs/db/colls/m",
                            Map.of("x-ms-documentdb-partitionkey", pk),
                            "{\"id\":\"i2\",\"pk\":\"a\",\"q\":\"b\",\"ttl\":100,\"v\":[0.1,0.2,0.3],"
                                    + "\"u\":\"x\",\"loc\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"),
                    new Target("PATCH", "/dbs/db/colls/m/docs/i1", "docs", "dbs/db/colls/m/docs/i1",
                            Map.of("x-ms-documentdb-partitionkey", pk),
                            "{\"condition\":\"from c where c.a >= 1\",\"operations\":["
                                    + "{\"op\":\"set\",\"path\":\"/a\",\"value\":1},"
                                    + "{\"op\":\"incr\",\"path\":\"/n\",\"value\":1},"
                                    + "{\"op\":\"add\",\"path\":\"/arr/-\",\"value\":3},"
                                    + "{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"},"
                                    + "{\"op\":\"remove\",\"path\":\"/b\"}]}"),
                    new Target("POST", "/dbs/db/colls/m/docs", "docs", "dbs/db/colls/m",
                            Map.of("x-ms-documentdb-isquery", "True", "Content-Type", "application/query+json",
                                    "x-ms-documentdb-query-enablecrosspartition", "True"),
                            "{\"query\":\"SELECT * FROM c WHERE c.a = @a AND ARRAY_CONTAINS(@list, c.n)\","
                                    + "\"parameters\":[{\"name\":\"@a\",\"value\":1},"
                                    + "{\"name\":\"@list\",\"value\":[1,2]}]}"),
                    new Target("POST", "/dbs/db/colls/m/docs", "docs", "dbs/db/colls/m",
                            Map.of("x-ms-cosmos-is-batch-request", "True", "x-ms-cosmos-batch-atomic", "True",
                                    "x-ms-documentdb-partitionkey", pk),
                            "[{\"operationType\":\"Upsert\",\"resourceBody\":{\"id\":\"b1\",\"pk\":\"a\","
                                    + "\"q\":\"b\"}},{\"operationType\":\"Read\",\"id\":\"i1\"},"
                                    + "{\"operationType\":\"Patch\",\"id\":\"i1\",\"resourceBody\":{"
                                    + "\"operations\":[{\"op\":\"set\",\"path\":\"/c\",\"value\":2}]}}]"),
                    new Target("POST", "/dbs/db/colls/m/docs", "docs", "dbs/db/colls/m",
                            Map.of("x-ms-cosmos-is-batch-request", "True", "x-ms-cosmos-batch-atomic", "False"),
                            "[{\"operationType\":\"Upsert\",\"partitionKey\":\"[\\\"a\\\",\\\"b\\\"]\","
                                    + "\"resourceBody\":{\"id\":\"k1\",\"pk\":\"a\",\"q\":\"b\"}},"
                                    + "{\"operationType\":\"Delete\",\"partitionKey\":\"[\\\"a\\\",\\\"c\\\"]\","
                                    + "\"id\":\"k2\"}]"),
                    new Target("POST", "/dbs/db/colls/m/sprocs/run", "sprocs", "dbs/db/colls/m/sprocs/run",
                            Map.of("x-ms-documentdb-partitionkey", pk), "[{\"a\":[1,{\"b\":null}]},\"s\",2]"))) {
                forEachMutation(t.template, (change, body) -> {
                    sent[0]++;
                    RawClient.Call call = raw.call(t.method, t.path).signed(t.type, t.link).body(body.toString());
                    t.headers.forEach(call::header);
                    HttpResponse<String> r = call.send();
                    check(failures, t.method + " " + t.path, change, r);
                    if (r.statusCode() == 201 && t.method.equals("POST") && t.headers.isEmpty()
                            && body.path("id").isTextual()) {
                        String link = t.path.substring(1) + "/" + body.get("id").asText();
                        raw.call("DELETE", "/" + link).signed(t.type, link).send();
                    }
                });
            }
            expect(raw.call("POST", "/dbs/db/colls").signed("colls", "dbs/db").header("x-ms-offer-throughput", "400")
                    .body("{\"id\":\"t\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\"}}").send(), 201);
            JsonNode offers = Json.parse(raw.call("GET", "/offers").signed("offers", "").send().body(), "offers");
            JsonNode offer = offers.get("Offers").get(0);
            String offerRid = offer.get("_rid").asText();
            forEachMutation(offer.toString(), (change, body) -> {
                sent[0]++;
                HttpResponse<String> r = raw.call("PUT", "/offers/" + offerRid)
                        .signed("offers", offerRid.toLowerCase(Locale.ROOT)).body(body.toString()).send();
                check(failures, "replace offer", change, r);
            });
            System.out.printf("BodyMutationTest: %d mutated bodies sent%n", sent[0]);
            assertThat(failures).isEmpty();
            expect(raw.call("GET", "/dbs/db/colls/m").signed("colls", "dbs/db/colls/m").send(), 200);
        }
    }

    private record Target(String method, String path, String type, String link, Map<String, String> headers,
            String template) {
    }

    private static void check(List<String> failures, String what, String change, HttpResponse<String> r) {
        // the template itself must succeed, or its mutations would test nothing past the first check
        if (change.equals(UNCHANGED) && r.statusCode() >= 300) {
            failures.add(what + " refused its valid template (" + r.statusCode() + "): " + r.body());
        }
        if (r.statusCode() >= 500) {
            failures.add(what + " answered " + r.statusCode() + " to " + change + ": " + FuzzRequest.cut(r.body(), 200));
        }
    }

    private static void expect(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    }

    /** Calls {@code send} with every single-node mutation of {@code template}: each node replaced or removed. */
    static void forEachMutation(String template, BiConsumer<String, JsonNode> send) {
        JsonNode root = Json.parse(template.getBytes(java.nio.charset.StandardCharsets.UTF_8), "template");
        List<List<Object>> paths = new ArrayList<>();
        collect(root, new ArrayList<>(), paths);
        send.accept(UNCHANGED, root.deepCopy());
        for (List<Object> path : paths) {
            if (path.isEmpty()) {
                continue;
            }
            for (JsonNode odd : ODD) {
                JsonNode copy = root.deepCopy();
                JsonNode original = at(copy, path);
                if (original.getNodeType() == odd.getNodeType() && original.equals(odd)) {
                    continue;
                }
                set(copy, path, odd);
                send.accept(path + " = " + odd, copy);
            }
            JsonNode copy = root.deepCopy();
            remove(copy, path);
            send.accept(path + " removed", copy);
        }
    }

    private static void collect(JsonNode node, List<Object> path, List<List<Object>> out) {
        out.add(List.copyOf(path));
        if (node.isObject()) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                path.add(f);
                collect(node.get(f), path, out);
                path.remove(path.size() - 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                path.add(i);
                collect(node.get(i), path, out);
                path.remove(path.size() - 1);
            }
        }
    }

    private static JsonNode at(JsonNode root, List<Object> path) {
        JsonNode n = root;
        for (Object step : path) {
            n = step instanceof String f ? n.get(f) : n.get((Integer) step);
        }
        return n;
    }

    private static void set(JsonNode root, List<Object> path, JsonNode value) {
        JsonNode parent = at(root, path.subList(0, path.size() - 1));
        Object last = path.get(path.size() - 1);
        if (last instanceof String f) {
            ((ObjectNode) parent).set(f, value);
        } else {
            ((ArrayNode) parent).set((Integer) last, value);
        }
    }

    private static void remove(JsonNode root, List<Object> path) {
        JsonNode parent = at(root, path.subList(0, path.size() - 1));
        Object last = path.get(path.size() - 1);
        if (last instanceof String f) {
            ((ObjectNode) parent).remove(f);
        } else {
            ((ArrayNode) parent).remove((Integer) last);
        }
    }
}
