package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchItemRequestOptions;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the SDKs' batch tests (Java TransactionalBatchTest, .NET BatchSinglePartitionKeyTests) and item tests expect of
 * session tokens and conditional reads: a refused item operation and a failed batch carry the partition's session
 * token, a batch read with the item's etag is 304 and makes the batch 207, refusals use the service's words, and a
 * batch whose results exceed the largest response fails with 413.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionTokensAndBatchReadsSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("s");
        client.getDatabase("s").createContainer("c", "/pk");
        c = client.getDatabase("s").getContainer("c");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    static ObjectNode doc(String id) {
        return JSON.createObjectNode().put("id", id).put("pk", "p");
    }

    @Test
    void aRefusedItemOperationCarriesTheSessionToken() {
        c.createItem(doc("there"));
        assertThatThrownBy(() -> c.readItem("absent", new PartitionKey("p"), JsonNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(404);
                    assertThat(e.getResponseHeaders().get("x-ms-session-token")).matches("\\d+:-1#\\d+");
                });
        assertThatThrownBy(() -> c.createItem(doc("there")))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(409);
                    assertThat(e.getResponseHeaders().get("x-ms-session-token")).isNotBlank();
                });
        assertThatThrownBy(() -> c.replaceItem(doc("there"), "there", new PartitionKey("p"),
                new CosmosItemRequestOptions().setIfMatchETag("\"stale\"")))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(412);
                    assertThat(e.getResponseHeaders().get("x-ms-session-token")).isNotBlank();
                    assertThat(e.getMessage()).contains("One of the specified pre-condition is not met");
                });
    }

    @Test
    void aFailedBatchCarriesTheSessionTokenItReadAt() {
        c.createItem(doc("b1"));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
        batch.readItemOperation("b1");
        batch.readItemOperation("nope");
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.isSuccessStatusCode()).isFalse();
        assertThat(r.getStatusCode()).isEqualTo(404);
        assertThat(r.getResults().get(0).getStatusCode()).isEqualTo(424);
        assertThat(r.getSessionToken()).matches("\\d+:-1#\\d+");
    }

    @Test
    void aBatchReadWithTheItemsEtagIsNotModified() {
        String etag = c.createItem(doc("e1")).getETag();
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
        batch.createItemOperation(doc("e2"));
        batch.readItemOperation("e1", new CosmosBatchItemRequestOptions().setIfMatchETag(etag));
        batch.readItemOperation("e1");
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.getResults().get(0).getStatusCode()).isEqualTo(201);
        assertThat(r.getResults().get(1).getStatusCode()).isEqualTo(304);
        assertThat(r.getResults().get(2).getStatusCode()).isEqualTo(200);
        // a 304 is no failure: the create committed
        assertThat(c.readItem("e2", new PartitionKey("p"), JsonNode.class).getStatusCode()).isEqualTo(200);
    }

    @Test
    void aBatchWhoseResultsExceedTheLargestResponseIs413AndWritesNothing() {
        ObjectNode big = doc("big").put("blob", "x".repeat(1024 * 1024)); // the SDK test's ~1 MB item
        c.createItem(big);
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
        batch.createItemOperation(doc("never"));
        for (int i = 0; i < 10; i++) {
            batch.readItemOperation("big");
        }
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertThat(r.getStatusCode()).isEqualTo(413);
        assertThat(r.getResults().get(1).getStatusCode()).isEqualTo(424);
        assertThat(r.getResults().get(10).getStatusCode()).isEqualTo(413);
        assertThatThrownBy(() -> c.readItem("never", new PartitionKey("p"), JsonNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
        // three of them fit in the 4 MB response
        CosmosBatch fits = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
        for (int i = 0; i < 3; i++) {
            fits.readItemOperation("big");
        }
        assertThat(c.executeCosmosBatch(fits).getStatusCode()).isEqualTo(200);
    }
}
