package dev.partita.core.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.ContainerScripts;
import dev.partita.core.Engine;
import dev.partita.core.ScriptResult;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scripts at the engine: all-or-nothing, bounded, sandboxed, durable, charged. */
class ScriptEngineTest {
    @TempDir
    Path tmp;

    private Engine engine;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private ContainerInfo open(Store store, Limits limits) {
        engine = Engine.open(store, Clock.systemUTC(), limits);
        engine.createDatabase(json("{\"id\":\"db\"}"), Throughput.NONE);
        return engine.createContainer("db", json("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                new Throughput(400, 0), 0);
    }

    private ContainerScripts scripts() {
        return engine.scripts(engine.readContainer("db", "c"));
    }

    private void sproc(String id, String body) {
        ObjectNode o = json("{}").put("id", id).put("body", body);
        scripts().create(ScriptKind.STORED_PROCEDURE, o, RequestOptions.NONE);
    }

    private ScriptResult run(String id, String params) {
        return scripts().execute(id, params.getBytes(StandardCharsets.UTF_8), true, on("a"));
    }

    private static RequestOptions on(String pk) {
        return RequestOptions.of(PartitionKeyValue.fromHeader("[\"" + pk + "\"]"));
    }

    private long items(ContainerInfo c) {
        byte[][] r = StoreKeys.containerItems(c.containerId());
        long n = 0;
        try (Cursor cur = engine.store().scan(r[0], r[1])) {
            while (cur.next()) {
                n++;
            }
        }
        return n;
    }

    private static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test");
    }

    private static final String WRITE_N = "function (n, fail) { var c = getContext().getCollection();"
            + " for (var i = 0; i < n; i++) { c.createDocument(c.getSelfLink(), {id: 'd' + i, pk: 'a'}); }"
            + " if (fail) throw new Error('after ' + n); getContext().getResponse().setBody(n); }";

    @Test
    void aStoredProcedureCommitsAllItsWritesOrNone() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS);
        sproc("w", WRITE_N);
        assertThatThrownBy(() -> run("w", "[20, true]")).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).contains("Error: after 20");
        });
        assertThat(items(c)).isZero();
        ScriptResult ok = run("w", "[20, false]");
        assertThat(ok.body()).isEqualTo("20");
        assertThat(items(c)).isEqualTo(20);
        // the charge is the cost model's price of 20 creates
        assertThat(ok.requestCharge()).isGreaterThan(20 * 5.0);
        assertThat(engine.container(c).query("SELECT VALUE COUNT(1) FROM c", Map.of(),
                RequestOptions.scoped(Scope.CONTAINER)).rows().get(0).asInt()).isEqualTo(20);
    }

    @Test
    void aConflictInsideIsPropagatedWithItsStatus() {
        open(new MemoryStore(), Limits.DEFAULTS);
        sproc("dup", "function () { var c = getContext().getCollection();"
                + " c.createDocument(c.getSelfLink(), {id: 'x', pk: 'a'});"
                + " c.createDocument(c.getSelfLink(), {id: 'x', pk: 'a'}, function (err) { if (err) throw err; }); }");
        assertThatThrownBy(() -> run("dup", "[]")).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(409));
    }

    /** Promise wrappers around the callback API (the pattern for async/await in stored procedures). */
    private static final String PROMISED = "var c = getContext().getCollection();"
            + " function create(doc) { return new Promise(function (resolve, reject) {"
            + "   var ok = c.createDocument(c.getSelfLink(), doc, function (err, d) { if (err) reject(err);"
            + "     else resolve(d); });"
            + "   if (!ok) reject(new Error('not accepted')); }); }"
            + " function query(q) { return new Promise(function (resolve, reject) {"
            + "   c.queryDocuments(c.getSelfLink(), q, function (err, feed) { if (err) reject(err);"
            + "     else resolve(feed); }); }); }";

    @Test
    void anAsyncStoredProcedureRunsItsPromisesCallbacksToTheEnd() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS);
        sproc("async", "function (n) { " + PROMISED
                + " async function main() { for (var i = 0; i < n; i++) { await create({id: 'p' + i, pk: 'a'}); }"
                + "   var feed = await query('SELECT VALUE COUNT(1) FROM c');"
                + "   getContext().getResponse().setBody(feed[0]); }"
                + " main().catch(function (e) { getContext().abort(e); }); }");
        assertThat(run("async", "[5]").body()).isEqualTo("5");
        assertThat(items(c)).isEqualTo(5);
    }

    /** Context.abort is the one way to roll back from a promise's callback, where a throw only rejects. */
    @Test
    void abortFromAPromisesCallbackRollsBackWithTheErrorsStatus() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS);
        sproc("stop", "function () { " + PROMISED
                + " async function main() { await create({id: 'x', pk: 'a'}); await create({id: 'y', pk: 'a'});"
                + "   getContext().abort(new Error('stopped after two')); }"
                + " main(); }");
        assertThatThrownBy(() -> run("stop", "[]")).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).contains("stopped after two");
        });
        assertThat(items(c)).isZero();
        sproc("dup", "function () { " + PROMISED
                + " async function main() { await create({id: 'x', pk: 'a'}); await create({id: 'x', pk: 'a'}); }"
                + " main().catch(function (e) { getContext().abort(e); }); }");
        assertThatThrownBy(() -> run("dup", "[]")).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(409));
        assertThat(items(c)).isZero();
    }

    /** A rejection nobody handles does not stop the script: what it wrote commits (only abort prevents that). */
    @Test
    void anUnhandledRejectionCommitsWhatTheScriptWrote() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS);
        sproc("reject", "function () { " + PROMISED
                + " async function main() { await create({id: 'x', pk: 'a'}); throw new Error('not handled'); }"
                + " main(); getContext().getResponse().setBody('done'); }");
        assertThat(run("reject", "[]").body()).isEqualTo("\"done\"");
        assertThat(items(c)).isEqualTo(1);
    }

    /** An endless loop, or an endless chain of promise jobs (they run within the script's bounds too). */
    @Test
    void aScriptThatLoopsForeverIsStoppedAtItsTimeLimitAndLeavesNothing() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS.toBuilder()
                .maxRequestExecution(Duration.ofMillis(300)).build());
        String[] endless = {"while (true) {}", "function again() { return Promise.resolve().then(again); } again();"};
        for (int i = 0; i < endless.length; i++) {
            sproc("loop" + i, "function () { var c = getContext().getCollection();"
                    + " c.createDocument(c.getSelfLink(), {id: 'x', pk: 'a'}); " + endless[i] + " }");
            String id = "loop" + i;
            long start = System.nanoTime();
            assertThatThrownBy(() -> run(id, "[]")).isInstanceOfSatisfying(ServiceException.class,
                    e -> assertThat(e.status()).isEqualTo(408));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(items(c)).isZero();
        }
        // the runtime goes on serving
        sproc("w", WRITE_N);
        assertThat(run("w", "[1, false]").body()).isEqualTo("1");
    }

    @Test
    void aScriptThatHoardsMemoryIsStopped() {
        open(new MemoryStore(), Limits.DEFAULTS.toBuilder().maxScriptAllocatedBytes(64L << 20).build());
        sproc("hoard", "function () { var a = []; while (true) { a.push(new Array(100000).fill(1.5)); } }");
        assertThatThrownBy(() -> run("hoard", "[]")).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.getMessage()).contains("memory"));
    }

    /** Contexts are pooled: what one script does to the built-ins or the API must not reach the next. */
    @Test
    void aScriptCannotChangeWhatTheNextScriptSees() {
        open(new MemoryStore(), Limits.DEFAULTS);
        sproc("taint", "function () { try { Array.prototype.evil = 1; } catch (e) {}"
                + " try { JSON.parse = function () { return 'owned'; }; } catch (e) {}"
                + " try { getContext().getResponse().setBody = function () {}; } catch (e) {}"
                + " getContext().getResponse().setBody('done'); }");
        sproc("look", "function () { getContext().getResponse().setBody([[].evil === undefined,"
                + " JSON.parse('1') === 1]); }");
        for (int i = 0; i < 20; i++) {
            run("taint", "[]");
            assertThat(run("look", "[]").body()).as("round %d", i).isEqualTo("[true,true]");
        }
    }

    @Test
    void theSandboxHasNoHostAccessNoIoAndNoThreads() {
        open(new MemoryStore(), Limits.DEFAULTS);
        sproc("probe", "function () { var r = [typeof Java, typeof Polyglot, typeof load, typeof print,"
                + " typeof require, typeof process, typeof Graal]; getContext().getResponse().setBody(r); }");
        assertThat(run("probe", "[]").body()).isEqualTo(
                "[\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\",\"undefined\"]");
        for (String attempt : new String[] {"Java.type('java.lang.System').exit(1)",
                "Polyglot.eval('js', '1')", "load('/etc/passwd')", "new java.io.File('/')"}) {
            sproc("p" + Math.abs(attempt.hashCode()), "function () { " + attempt + "; }");
            assertThatThrownBy(() -> run("p" + Math.abs(attempt.hashCode()), "[]"))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        }
    }

    @Test
    void aScriptThatOutgrowsThePartitionsBudgetGets429AndAppliesNothing() {
        ContainerInfo c = open(new MemoryStore(), Limits.DEFAULTS);
        engine.capacity().enforce(true);
        sproc("w", WRITE_N);
        // 400 RU/s: 100 creates at ~5.7 RU each cannot fit in one second's budget
        assertThatThrownBy(() -> run("w", "[100, false]")).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(429));
        assertThat(items(c)).isZero();
    }

    @Test
    void scriptsAreDurableOnRocksAndErasedWithTheirContainer() {
        ContainerInfo c = open(RocksStore.open(tmp), Limits.DEFAULTS);
        sproc("w", WRITE_N);
        scripts().create(ScriptKind.USER_DEFINED_FUNCTION, json("{\"id\":\"f\",\"body\":\"function (x) {"
                + " return x + 1; }\"}"), RequestOptions.NONE);
        engine.close();
        engine = Engine.open(RocksStore.open(tmp), Clock.systemUTC(), Limits.DEFAULTS);
        assertThat(scripts().list(ScriptKind.STORED_PROCEDURE, RequestOptions.NONE)).extracting(ScriptResource::id)
                .containsExactly("w");
        JsonNode f = scripts().read(ScriptKind.USER_DEFINED_FUNCTION, "f", RequestOptions.NONE).toJson(c);
        assertThat(f.get("_self").asText()).endsWith("/udfs/" + f.get("_rid").asText() + "/");
        engine.deleteContainer("db", "c");
        byte[] from = StoreKeys.containerStart((byte) 0x08, c.containerId());
        try (Cursor cur = engine.store().scan(from, StoreKeys.containerEnd((byte) 0x08, c.containerId()))) {
            assertThat(cur.next()).isFalse();
        }
    }
}
