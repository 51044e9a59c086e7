package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A server that listens while its engine is still opening (what {@code partita serve} does at start-up). */
class OpeningServerTest {
    private static final ServerOptions OPTIONS = new ServerOptions("localhost", 0, false, null, Keys.emulator(), false);

    @Test
    void requestsWaitForTheEngineAndAreThenAnswered() throws Exception {
        Clock clock = Clock.systemUTC();
        CompletableFuture<Engine> opening = new CompletableFuture<>();
        try (PartitaServer server = PartitaServer.start(opening, clock, Limits.DEFAULTS, OPTIONS);
                var requests = Executors.newVirtualThreadPerTaskExecutor()) {
            RawClient raw = new RawClient(server.endpoint());
            Future<HttpResponse<String>> account = requests.submit(() -> raw.call("GET", "/").send());
            Future<HttpResponse<String>> create = requests.submit(() -> raw.call("POST", "/dbs")
                    .signed("dbs", "").body("{\"id\":\"early\"}").send());
            // listening, but nothing is answered while the engine opens
            assertThat(timesOut(account)).isTrue();
            Engine engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS);
            opening.complete(engine);
            assertThat(account.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(create.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
            assertThat(raw.call("GET", "/dbs/early").signed("dbs", "dbs/early").send().statusCode()).isEqualTo(200);
            engine.close();
        }
    }

    @Test
    void anEngineThatFailedToOpenAnswers503() throws Exception {
        CompletableFuture<Engine> opening = new CompletableFuture<>();
        try (PartitaServer server = PartitaServer.start(opening, Clock.systemUTC(), Limits.DEFAULTS, OPTIONS)) {
            opening.completeExceptionally(new IllegalStateException("the store is locked by another process"));
            HttpResponse<String> r = new RawClient(server.endpoint()).call("GET", "/").send();
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).contains("could not open its store").doesNotContain("locked");
        }
    }

    private static boolean timesOut(Future<?> f) throws Exception {
        try {
            f.get(300, TimeUnit.MILLISECONDS);
            return false;
        } catch (TimeoutException e) {
            return true;
        }
    }
}
