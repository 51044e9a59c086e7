package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A query that computes for a long time (a cross product of one item's arrays) on every core at once must neither
 * run unbounded nor stop the server: each ends at the request deadline with the service's 408, and point reads keep
 * answering while they run.
 */
class RunawayQueryTest {
    /** Five joins over 60 elements: 777 million rows of one item, far more than one request's time allows. */
    static final String RUNAWAY = "SELECT VALUE COUNT(1) FROM c JOIN a IN c.x JOIN b IN c.x JOIN d IN c.x"
            + " JOIN e IN c.x JOIN f IN c.x WHERE a + b + d + e + f < 0";

    Engine engine;
    PartitaServer server;
    RawClient raw;

    @BeforeEach
    void start() {
        Limits limits = Limits.DEFAULTS.toBuilder().maxRequestExecution(Duration.ofSeconds(3)).build();
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), limits);
        server = PartitaServer.start(engine, new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false));
        raw = new RawClient(server.endpoint());
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        engine.createContainer("db", (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}",
                "container"), Throughput.NONE, 0);
        StringBuilder x = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            x.append(i == 0 ? "" : ",").append(i);
        }
        engine.container("db", "c").create(("{\"id\":\"big\",\"pk\":\"p\",\"x\":[" + x + "]}")
                .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        engine.container("db", "c").create("{\"id\":\"small\",\"pk\":\"p\"}".getBytes(StandardCharsets.UTF_8),
                RequestOptions.NONE);
    }

    @AfterEach
    void stop() {
        server.close();
        engine.close();
    }

    @Test
    void runawayQueriesOnEveryCoreEndAt408WhilePointReadsKeepAnswering() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        List<CompletableFuture<HttpResponse<String>>> queries = new ArrayList<>();
        for (int i = 0; i < cores; i++) {
            queries.add(CompletableFuture.supplyAsync(() -> raw.call("POST", "/dbs/db/colls/c/docs")
                    .signed("docs", "dbs/db/colls/c")
                    .header("x-ms-documentdb-isquery", "true")
                    .header("Content-Type", "application/query+json")
                    .header("x-ms-documentdb-partitionkey", "[\"p\"]")
                    .body("{\"query\":\"" + RUNAWAY + "\"}").send()));
        }
        Thread.sleep(300); // let them get going
        int reads = 0;
        while (reads < 20) {
            HttpResponse<String> r = raw.call("GET", "/dbs/db/colls/c/docs/small").signed("docs",
                    "dbs/db/colls/c/docs/small").header("x-ms-documentdb-partitionkey", "[\"p\"]").send();
            assertThat(r.statusCode()).isEqualTo(200);
            reads++;
        }
        assertThat(queries).as("the reads were answered while every query still ran")
                .anyMatch(q -> !q.isDone());
        for (CompletableFuture<HttpResponse<String>> q : queries) {
            HttpResponse<String> r = q.get();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(408);
            assertThat(r.body()).contains("RequestTimeout").doesNotContain("\"big\"");
        }
    }
}
