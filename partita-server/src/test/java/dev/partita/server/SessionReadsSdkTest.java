package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemIdentity;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Session reads with a token the partition has not reached (the Java SDK's
 * {@code readManyWithIncorrectUserSpecifiedSessionToken*} tests): the service's 404 with sub-status 1002 for point
 * reads, readMany and queries; a token of a range the read does not touch, or a read at a weaker level, is served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionReadsSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosContainer c;
    String token;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("s");
        client.getDatabase("s").createContainer("c", "/pk");
        c = client.getDatabase("s").getContainer("c");
        ObjectNode doc = JSON.createObjectNode().put("id", "a").put("pk", "p");
        token = c.createItem(doc).getSessionToken();
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    /** The token with its LSN one past what the partition has committed, as the SDK test's bumpUpLsnInSessionToken. */
    String bumped() {
        int hash = token.lastIndexOf('#');
        return token.substring(0, hash + 1) + (Long.parseLong(token.substring(hash + 1)) + 1);
    }

    static void sessionNotAvailable(ThrowingCallable read) {
        assertThatThrownBy(read).isInstanceOfSatisfying(CosmosException.class, e -> {
            assertThat(e.getStatusCode()).isEqualTo(404);
            assertThat(e.getSubStatusCode()).isEqualTo(1002);
        });
    }

    @Test
    void aTokenAheadOfThePartitionIs404With1002ForEveryKindOfRead() {
        assertThat(token).matches("\\d+:-1#\\d+");
        sessionNotAvailable(() -> c.readItem("a", new PartitionKey("p"),
                new CosmosItemRequestOptions().setSessionToken(bumped()), JsonNode.class));
        sessionNotAvailable(() -> c.readMany(List.of(new CosmosItemIdentity(new PartitionKey("p"), "a")), bumped(),
                JsonNode.class));
        sessionNotAvailable(() -> c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions()
                .setSessionToken(bumped()), JsonNode.class).stream().toList());
    }

    @Test
    void theTokenAWriteReturnedIsServed() {
        JsonNode read = c.readItem("a", new PartitionKey("p"), new CosmosItemRequestOptions().setSessionToken(token),
                JsonNode.class).getItem();
        assertThat(read.get("id").asText()).isEqualTo("a");
    }

    @Test
    void aTokenOfAnotherRangeOrAWeakerLevelIsServed() {
        String otherRange = "555" + bumped().substring(bumped().indexOf(':'));
        assertThat(c.readMany(List.of(new CosmosItemIdentity(new PartitionKey("p"), "a")), otherRange,
                JsonNode.class).getResults()).hasSize(1);
        assertThat(c.readItem("a", new PartitionKey("p"), new CosmosItemRequestOptions().setSessionToken(bumped())
                .setConsistencyLevel(ConsistencyLevel.EVENTUAL), JsonNode.class).getItem()).isNotNull();
    }
}
