package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.ThrottlingRetryOptions;
import dev.partita.server.PartitaServer;

/** A second client on the test's server whose 429 retries are off, so every throttle is seen. */
final class Clients {
    static final String KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private Clients() {
    }

    static CosmosClient noRetries(PartitaServer server) {
        return noRetries(server.endpoint());
    }

    static CosmosClient noRetries(String endpoint) {
        return new CosmosClientBuilder().endpoint(endpoint).key(KEY).gatewayMode().endpointDiscoveryEnabled(false)
                .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                .buildClient();
    }
}
