package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosConflictRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conflicts feed of a single-region account: always empty; reading or deleting a conflict is a 404, as for any
 * conflict that is not there (the operations every SDK documents: CosmosAsyncConflict.read and delete).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConflictsSdkTest {
    TestServers t;
    CosmosAsyncClient client;
    CosmosAsyncContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.asyncClient();
        client.createDatabase("k").block();
        client.getDatabase("k").createContainer("c", "/pk").block();
        c = client.getDatabase("k").getContainer("c");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void theFeedIsEmptyAndAConflictIsNotFound() {
        assertThat(c.readAllConflicts(new CosmosQueryRequestOptions()).collectList().block()).isEmpty();
        assertThatThrownBy(() -> c.getConflict("nope").read(new CosmosConflictRequestOptions().setPartitionKey(new PartitionKey("p"))).block())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
        assertThatThrownBy(() -> c.getConflict("nope").delete(new CosmosConflictRequestOptions().setPartitionKey(new PartitionKey("p"))).block())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    }
}
