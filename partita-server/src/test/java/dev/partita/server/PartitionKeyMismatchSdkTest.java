package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

/**
 * 400/1001 (PartitionKeyMismatch): the key in {@code x-ms-documentdb-partitionkey} differs from the key in the body.
 *
 * <p>The way applications meet it without writing a wrong key: one {@link CosmosItemRequestOptions} shared between
 * concurrent writes. The SDK stores each call's partition key in the options it is given when the call is made and
 * reads it back when the request is built, so a write can go out with another write's key and its own body. The
 * shipments example's load did this (one or two 400/1001 per run); here the interleaving is made certain with the
 * async API, whose requests are built only on subscription.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionKeyMismatchSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();

    TestServers t;
    CosmosAsyncClient client;
    CosmosAsyncContainer flat;
    CosmosAsyncContainer hierarchical;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.asyncClient();
        client.createDatabase("pkm").block();
        var db = client.getDatabase("pkm");
        db.createContainer(new CosmosContainerProperties("flat", "/tenantId"),
                ThroughputProperties.createManualThroughput(12_000)).block();
        PartitionKeyDefinition two = new PartitionKeyDefinition();
        two.setPaths(List.of("/tenantId", "/shipmentId"));
        two.setKind(PartitionKind.MULTI_HASH);
        two.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hierarchical", two),
                ThroughputProperties.createManualThroughput(12_000)).block();
        flat = db.getContainer("flat");
        hierarchical = db.getContainer("hierarchical");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    static ObjectNode shipment(String tenant, String shipmentId) {
        return JSON.createObjectNode().put("id", shipmentId).put("tenantId", tenant).put("shipmentId", shipmentId);
    }

    static PartitionKey twoLevels(ObjectNode s) {
        return new PartitionKeyBuilder().add(s.get("tenantId").asText()).add(s.get("shipmentId").asText()).build();
    }

    @Test
    void aHeaderKeyOtherThanTheBodysIs400With1001AndNothingIsWritten() {
        ObjectNode a = shipment("a", "a-1");
        for (Mono<?> write : List.of(flat.upsertItem(a, new PartitionKey("b"), new CosmosItemRequestOptions()),
                flat.createItem(a, new PartitionKey("b"), new CosmosItemRequestOptions()),
                hierarchical.upsertItem(a, new PartitionKeyBuilder().add("a").add("a-2").build(),
                        new CosmosItemRequestOptions()))) {
            assertMismatch(write);
        }
        assertThatThrownBy(() -> flat.readItem("a-1", new PartitionKey("a"), ObjectNode.class).block())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(404));
    }

    @Test
    void sharedOptionsSendTheLastCallsKeyWithEachBodyAndFreshOptionsDoNot() {
        for (CosmosAsyncContainer c : List.of(flat, hierarchical)) {
            boolean multi = c == hierarchical;
            ObjectNode x = shipment("tenant-x", "x-1");
            ObjectNode y = shipment("tenant-y", "y-1");
            PartitionKey kx = multi ? twoLevels(x) : new PartitionKey("tenant-x");
            PartitionKey ky = multi ? twoLevels(y) : new PartitionKey("tenant-y");

            CosmosItemRequestOptions shared = new CosmosItemRequestOptions();
            Mono<CosmosItemResponse<ObjectNode>> first = c.upsertItem(x, kx, shared);
            Mono<CosmosItemResponse<ObjectNode>> second = c.upsertItem(y, ky, shared);
            // x's request is built now, with the key the second call left in the shared options
            assertMismatch(first);
            assertThat(second.block().getStatusCode()).as("y's own key").isEqualTo(201);

            ObjectNode z = shipment("tenant-z", "z-1");
            PartitionKey kz = multi ? twoLevels(z) : new PartitionKey("tenant-z");
            Mono<CosmosItemResponse<ObjectNode>> own = c.upsertItem(x, kx, new CosmosItemRequestOptions());
            Mono<CosmosItemResponse<ObjectNode>> other = c.upsertItem(z, kz, new CosmosItemRequestOptions());
            assertThat(own.block().getStatusCode()).isEqualTo(201);
            assertThat(other.block().getStatusCode()).isEqualTo(201);
        }
    }

    private static void assertMismatch(Mono<?> write) {
        assertThatThrownBy(write::block).isInstanceOfSatisfying(CosmosException.class, e -> {
            assertThat(e.getStatusCode()).isEqualTo(400);
            assertThat(e.getSubStatusCode()).isEqualTo(1001);
        });
    }
}
