package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosDatabase;
import java.util.UUID;

/** A fresh database with the {@code unresolvedevents} container, and rows to put in it. */
final class TrackingFixture {
    final CosmosDatabase database;
    final QueryLog queries = new QueryLog();
    final TrackingStore store;

    TrackingFixture(CosmosClient client) {
        String name = "tracking-" + UUID.randomUUID().toString().substring(0, 8);
        client.createDatabase(name);
        database = client.getDatabase(name);
        store = new TrackingStore(TrackingStore.create(database), queries);
    }

    static FailedMessage row(int event, String status, long ticks) {
        return FailedMessage.of("ignored-by-the-scope", "evt" + event, "s" + (event % 3), status,
                new FailedMessage.Failure("System.TimeoutException", "the handler timed out", 1 + event % 4), ticks,
                null);
    }
}
