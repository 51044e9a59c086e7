package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.CosmosScripts;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureResponse;
import com.azure.cosmos.models.CosmosTriggerProperties;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.TriggerOperation;
import com.azure.cosmos.models.TriggerType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.script.ScriptKind;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Stored procedures, triggers and user-defined functions through the official Java SDK. */
class ScriptsSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static Engine engine;
    static PartitaServer server;
    static CosmosClient client;
    static CosmosContainer container;
    static CosmosScripts scripts;

    @BeforeAll
    static void start() {
        // a short time limit and accept window, so the bounded-execution cases run in well under a second
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS.toBuilder()
                .maxRequestExecution(Duration.ofMillis(1500)).scriptAcceptWindow(Duration.ofMillis(200)).build());
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = new com.azure.cosmos.CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient();
        client.createDatabase("db");
        // five physical partitions, so cross-partition queries fan out
        engine.createContainer("db", (ObjectNode) JSON.createObjectNode().put("id", "c")
                .set("partitionKey", JSON.createObjectNode().set("paths", JSON.createArrayNode().add("/pk"))),
                Throughput.NONE, 5);
        container = client.getDatabase("db").getContainer("c");
        scripts = container.getScripts();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        engine.close();
    }

    static CosmosStoredProcedureRequestOptions in(String pk) {
        return new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey(pk));
    }

    static ObjectNode doc(String id, String pk) {
        return JSON.createObjectNode().put("id", id).put("pk", pk);
    }

    static int status(Runnable r) {
        try {
            r.run();
            return 200;
        } catch (CosmosException e) {
            return e.getStatusCode();
        }
    }

    static String ridOf(String sproc) {
        return engine.scripts(engine.readContainer("db", "c")).read(ScriptKind.STORED_PROCEDURE, sproc,
                RequestOptions.NONE).rid();
    }

    static JsonNode body(CosmosStoredProcedureResponse r) throws Exception {
        return JSON.readTree(r.getResponseAsString());
    }

    @Test
    void allThreeKindsAreCreatedReadListedReplacedAndDeleted() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("crud", "function () {}"));
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("crudF", "function (x) { return x; }"));
        scripts.createTrigger(new CosmosTriggerProperties("crudT", "function () {}")
                .setTriggerType(TriggerType.POST).setTriggerOperation(TriggerOperation.DELETE));

        var sproc = scripts.getStoredProcedure("crud").read().getProperties();
        assertThat(sproc.getBody()).isEqualTo("function () {}");
        assertThat(sproc.getTimestamp()).isNotNull();
        String rid = ridOf("crud");
        assertThat(sproc.getETag()).isNotBlank();
        assertThat(scripts.getTrigger("crudT").read().getProperties().getTriggerOperation())
                .isEqualTo(TriggerOperation.DELETE);
        assertThat(scripts.readAllStoredProcedures().stream().map(p -> p.getId())).contains("crud");
        assertThat(scripts.queryUserDefinedFunctions("SELECT * FROM r WHERE r.id = 'crudF'",
                new CosmosQueryRequestOptions()).stream().map(p -> p.getId())).containsExactly("crudF");
        assertThat(status(() -> scripts.createStoredProcedure(new CosmosStoredProcedureProperties("crud",
                "function () {}")))).isEqualTo(409);

        String firstEtag = sproc.getETag();
        // the SDK replaces by the self link of properties it read
        var replaced = scripts.getStoredProcedure("crud").replace(sproc.setBody(
                "function () { getContext().getResponse().setBody('v2'); }")).getProperties();
        assertThat(ridOf("crud")).isEqualTo(rid);
        assertThat(replaced.getETag()).isNotEqualTo(firstEtag);
        assertThat(scripts.getStoredProcedure("crud").execute(List.of(), in("x")).getResponseAsString())
                .isEqualTo("\"v2\"");

        scripts.getStoredProcedure("crud").delete();
        scripts.getUserDefinedFunction("crudF").delete();
        scripts.getTrigger("crudT").delete();
        assertThat(status(() -> scripts.getStoredProcedure("crud").read())).isEqualTo(404);
        assertThat(status(() -> scripts.getUserDefinedFunction("crudF").read())).isEqualTo(404);
        assertThat(status(() -> scripts.getTrigger("crudT").read())).isEqualTo(404);
    }

    @Test
    void aStoredProcedureThatWritesThenThrowsLeavesNothing() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("writeThenThrow",
                "function (n) { var c = getContext().getCollection();"
                        + " for (var i = 0; i < n; i++) c.createDocument(c.getSelfLink(), {id: 'wt' + i, pk: 'wt'});"
                        + " throw new Error('changed my mind'); }"));
        assertThatThrownBy(() -> scripts.getStoredProcedure("writeThenThrow").execute(List.of(10), in("wt")))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("changed my mind");
                });
        for (int i = 0; i < 10; i++) {
            int n = i;
            assertThat(status(() -> container.readItem("wt" + n, new PartitionKey("wt"), ObjectNode.class)))
                    .isEqualTo(404);
        }
    }

    /** async/await over promise wrappers of the callback API, and Context.abort from a promise's callback. */
    @Test
    void anAsyncStoredProcedureCommitsOrAbortsFromItsPromises() {
        String wrappers = "var c = getContext().getCollection();"
                + " function create(doc) { return new Promise(function (ok, fail) {"
                + "   c.createDocument(c.getSelfLink(), doc, function (err, d) {"
                + "     if (err) fail(err); else ok(d); }); }); }";
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("asyncWrites",
                "function (n, abortAfter) { " + wrappers
                        + " async function main() { for (var i = 0; i < n; i++) {"
                        + "   await create({id: 'as' + i, pk: 'as'});"
                        + "   if (i + 1 === abortAfter) getContext().abort(new Error('abort after ' + abortAfter)); }"
                        + "   getContext().getResponse().setBody({written: n}); }"
                        + " main().catch(function (e) { getContext().abort(e); }); }"));
        assertThatThrownBy(() -> scripts.getStoredProcedure("asyncWrites").execute(List.of(4, 2), in("as")))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("abort after 2");
                });
        assertThat(status(() -> container.readItem("as0", new PartitionKey("as"), ObjectNode.class)))
                .isEqualTo(404);
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("asyncWrites").execute(List.of(4, 0), in("as"));
        assertThat(r.getResponseAsString()).isEqualTo("{\"written\":4}");
        assertThat(container.readItem("as3", new PartitionKey("as"), ObjectNode.class).getStatusCode())
                .isEqualTo(200);
    }

    @Test
    void aStoredProcedureQueriesItsOwnPartitionAndSeesItsOwnWrites() throws Exception {
        container.createItem(doc("q1", "q").put("n", 1));
        container.createItem(doc("q2", "q").put("n", 2));
        container.createItem(doc("other", "elsewhere").put("n", 3));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("sum",
                "function () { var c = getContext().getCollection();"
                        + " c.createDocument(c.getSelfLink(), {id: 'q3', pk: 'q', n: 4});"
                        + " c.queryDocuments(c.getSelfLink(), {query: 'SELECT VALUE r.n FROM r WHERE r.n > @min',"
                        + " parameters: [{name: '@min', value: 0}]}, {}, function (err, ns) { if (err) throw err;"
                        + " getContext().getResponse().setBody(ns.reduce(function (a, b) { return a + b; }, 0)); }); }"));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("sum").execute(List.of(), in("q"));
        assertThat(r.getResponseAsString()).isEqualTo("7");
        assertThat(r.getRequestCharge()).isGreaterThan(5.0);
    }

    @Test
    void boundedExecutionHandsBackAContinuation() throws Exception {
        // each document takes ~20 ms of the script's time; the 200 ms window accepts ~10 per execution
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("bulk",
                "function (from, total) { var c = getContext().getCollection(); var i = from;"
                        + " while (i < total) { var t = Date.now(); while (Date.now() - t < 20) {}"
                        + " if (!c.createDocument(c.getSelfLink(), {id: 'b' + i, pk: 'bulk'})) break; i++; }"
                        + " getContext().getResponse().setBody({next: i}); }"));
        int next = 0;
        int calls = 0;
        while (next < 30) {
            next = body(scripts.getStoredProcedure("bulk").execute(List.of(next, 30), in("bulk"))).get("next")
                    .asInt();
            calls++;
            assertThat(calls).isLessThan(30);
        }
        assertThat(calls).isGreaterThan(1);
        assertThat(container.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("bulk")), Integer.class).stream().findFirst()).contains(30);
    }

    @Test
    void aPreTriggerStampsTheDocumentAndAPostTriggerThatThrowsUndoesTheWrite() {
        scripts.createTrigger(new CosmosTriggerProperties("stamp", "function () { var r = getContext().getRequest();"
                + " var d = r.getBody(); d.stamped = r.getOperationType(); r.setBody(d); }")
                .setTriggerType(TriggerType.PRE).setTriggerOperation(TriggerOperation.CREATE));
        scripts.createTrigger(new CosmosTriggerProperties("veto", "function () {"
                + " var d = getContext().getResponse().getBody(); if (d.veto) throw new Error('vetoed ' + d.id); }")
                .setTriggerType(TriggerType.POST).setTriggerOperation(TriggerOperation.ALL));

        ObjectNode created = container.createItem(doc("t1", "tr"), new PartitionKey("tr"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp"))).getItem();
        assertThat(container.readItem("t1", new PartitionKey("tr"), ObjectNode.class).getItem().get("stamped")
                .asText()).isEqualTo("Create");
        assertThat(created).isNull(); // the SDK returns no body unless content response is on

        assertThatThrownBy(() -> container.createItem(doc("t2", "tr").put("veto", true), new PartitionKey("tr"),
                new CosmosItemRequestOptions().setPostTriggerInclude(List.of("veto"))))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getMessage()).contains("vetoed t2"));
        assertThat(status(() -> container.readItem("t2", new PartitionKey("tr"), ObjectNode.class))).isEqualTo(404);

        // a pre-trigger for creates cannot run on a replace
        assertThat(status(() -> container.replaceItem(doc("t1", "tr"), "t1", new PartitionKey("tr"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("stamp"))))).isEqualTo(400);
        assertThat(status(() -> container.createItem(doc("t3", "tr"), new PartitionKey("tr"),
                new CosmosItemRequestOptions().setPreTriggerInclude(List.of("veto"))))).isEqualTo(400);
    }

    @Test
    void aUdfRunsInWhereAndSelectAcrossFivePhysicalPartitions() {
        assertThat(engine.readContainer("db", "c").partitions().size()).isEqualTo(5);
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("tax",
                "function (price) { return Math.round(price * 1.2); }"));
        for (int i = 0; i < 40; i++) {
            container.createItem(doc("u" + i, "udf-" + i).put("price", i * 10).put("kind", "udf"));
        }
        List<Integer> taxed = container.queryItems("SELECT VALUE udf.tax(c.price) FROM c WHERE c.kind = 'udf'"
                + " AND udf.tax(c.price) >= 420", new CosmosQueryRequestOptions(), Integer.class).stream().sorted()
                .toList();
        List<Integer> expected = new ArrayList<>();
        for (int i = 35; i < 40; i++) {
            expected.add((int) Math.round(i * 10 * 1.2));
        }
        assertThat(taxed).isEqualTo(expected);
        assertThat(status(() -> container.queryItems("SELECT * FROM c ORDER BY udf.tax(c.price)",
                new CosmosQueryRequestOptions(), ObjectNode.class).stream().count())).isEqualTo(400);
        assertThat(status(() -> container.queryItems("SELECT VALUE udf.nope(c.price) FROM c",
                new CosmosQueryRequestOptions(), ObjectNode.class).stream().count())).isEqualTo(400);
    }

    @Test
    void aScriptThatLoopsForeverIsStoppedAndLeavesNothing() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("forever",
                "function () { var c = getContext().getCollection();"
                        + " c.createDocument(c.getSelfLink(), {id: 'f1', pk: 'forever'}); while (true) {} }"));
        long start = System.nanoTime();
        assertThat(status(() -> scripts.getStoredProcedure("forever").execute(List.of(), in("forever"))))
                .isEqualTo(408);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(status(() -> container.readItem("f1", new PartitionKey("forever"), ObjectNode.class)))
                .isEqualTo(404);
    }

    @Test
    void aScriptThatReachesForTheHostOrFilesFailsCleanly() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("host",
                "function () { return Java.type('java.lang.Runtime').getRuntime().exec('id'); }"));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("file",
                "function () { load('/etc/passwd'); }"));
        assertThat(status(() -> scripts.getStoredProcedure("host").execute(List.of(), in("x")))).isEqualTo(400);
        assertThat(status(() -> scripts.getStoredProcedure("file").execute(List.of(), in("x")))).isEqualTo(400);
    }

    @Test
    void concurrentExecutionsOnOnePartitionSerialiseWithoutLostUpdates() throws Exception {
        container.createItem(doc("counter", "cnt").put("n", 0));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("increment",
                "function () { var c = getContext().getCollection();"
                        + " c.readDocument(c.getAltLink() + '/docs/counter', {}, function (err, d) { if (err) throw err;"
                        + " d.n++; c.replaceDocument(d._self, d, {etag: d._etag}, function (e2) { if (e2) throw e2; });"
                        + " }); }"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> runs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            runs.add(pool.submit(() -> scripts.getStoredProcedure("increment").execute(List.of(), in("cnt"))));
        }
        for (Future<?> f : runs) {
            f.get();
        }
        pool.shutdown();
        assertThat(container.readItem("counter", new PartitionKey("cnt"), ObjectNode.class).getItem().get("n")
                .asInt()).isEqualTo(40);
    }

    @Test
    void scriptLoggingComesBackInItsHeader() {
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("logs",
                "function (who) { console.log('hello', who); console.log({n: 1}); }"));
        CosmosStoredProcedureResponse r = scripts.getStoredProcedure("logs").execute(List.of("you & me"),
                in("x").setScriptLoggingEnabled(true));
        assertThat(r.getScriptLog()).isEqualTo("hello you & me\n{\"n\":1}");
        assertThat(scripts.getStoredProcedure("logs").execute(List.of("x"), in("x")).getScriptLog()).isNull();
    }
}
