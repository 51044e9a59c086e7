package dev.partita.clients.springdata;

import dev.partita.junit.PartitaTest;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shop application against an in-process Partita over HTTPS (the self-signed certificate, as the emulator has):
 * each test class gets its own Partita from {@code @PartitaTest} and its own Spring context, closed after the class
 * and before the server, so the framework creates the database and containers afresh.
 */
@PartitaTest(https = true)
@SpringBootTest(classes = ShopApplication.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class PartitaSpringTest {
    private static volatile String endpoint;

    @BeforeAll
    static void partita(PartitaServer server) {
        endpoint = server.endpoint();
    }

    @DynamicPropertySource
    static void cosmosAccount(DynamicPropertyRegistry registry) {
        registry.add("cosmos.endpoint", () -> endpoint);
        registry.add("cosmos.key", () -> Keys.EMULATOR_PRIMARY);
    }
}
