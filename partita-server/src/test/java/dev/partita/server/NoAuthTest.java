package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** With {@code noAuth} every request is accepted: unsigned, wrongly signed, any key. */
class NoAuthTest {
    @Test
    void everythingIsAccepted() {
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS, (c, i) -> {
            throw ServiceException.badRequest("no");
        }); PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                Keys.emulator(), true))) {
            RawClient raw = new RawClient(server.endpoint());
            assertThat(raw.call("GET", "/").unsigned().date(null).send().statusCode()).isEqualTo(200);
            assertThat(raw.call("POST", "/dbs").unsigned().body("{\"id\":\"open\"}").send().statusCode())
                    .isEqualTo(201);
            String anyKey = java.util.Base64.getEncoder().encodeToString(new byte[64]);
            try (CosmosClient client = new CosmosClientBuilder().endpoint(server.endpoint()).key(anyKey)
                    .gatewayMode().endpointDiscoveryEnabled(false).buildClient()) {
                client.getDatabase("open").createContainer("c", "/pk");
                client.getDatabase("open").getContainer("c")
                        .createItem(new ObjectMapper().createObjectNode().put("id", "a").put("pk", "p"));
                assertThat(engine.readContainer("open", "c").id()).isEqualTo("c");
            }
        }
    }
}
