package dev.partita.server;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.ConsistencyLevel;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.nio.file.Path;
import java.time.Clock;

/** A server over a fresh in-memory engine, and SDK clients for it. */
final class TestServers implements AutoCloseable {
    final Engine engine;
    final PartitaServer server;

    private TestServers(Engine engine, PartitaServer server) {
        this.engine = engine;
        this.server = server;
    }

    static TestServers http() {
        return start(false, null, Limits.DEFAULTS);
    }

    static TestServers https(Path certDir) {
        return start(true, certDir, Limits.DEFAULTS);
    }

    static TestServers start(boolean https, Path certDir, Limits limits) {
        return start(https, certDir, limits, Clock.systemUTC());
    }

    /** Plain HTTP over an engine with the given clock (tests that move time: TTL, point-in-time starts). */
    static TestServers http(Clock clock) {
        return start(false, null, Limits.DEFAULTS, clock);
    }

    static TestServers start(boolean https, Path certDir, Limits limits, Clock clock) {
        Engine engine = Engine.open(new MemoryStore(), clock, limits);
        ServerOptions options = new ServerOptions("localhost", 0, https, certDir, Keys.emulator(), false);
        return new TestServers(engine, PartitaServer.start(engine, options));
    }

    CosmosClientBuilder builder(String key) {
        return new CosmosClientBuilder()
                .endpoint(server.endpoint())
                .key(key)
                .gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION)
                .endpointDiscoveryEnabled(false);
    }

    CosmosClient client() {
        return builder(Keys.EMULATOR_PRIMARY).buildClient();
    }

    CosmosAsyncClient asyncClient() {
        return builder(Keys.EMULATOR_PRIMARY).buildAsyncClient();
    }

    @Override
    public void close() {
        server.close();
        engine.close();
    }
}
