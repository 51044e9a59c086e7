package dev.partita.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosDatabase;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** A server on a clock the test can move, an SDK client and one database, for the change-feed test classes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FeedServerTest {
    static final ObjectMapper JSON = new ObjectMapper();
    final FeedTesting.OffsetClock clock = new FeedTesting.OffsetClock();
    private final String database;
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    FeedServerTest(String database) {
        this.database = database;
    }

    @BeforeAll
    void start() {
        t = TestServers.http(clock);
        client = t.client();
        client.createDatabase(database);
        db = client.getDatabase(database);
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }
}
