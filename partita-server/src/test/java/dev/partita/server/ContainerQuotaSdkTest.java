package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerRequestOptions;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.limits.Limits;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Container reads with quota information ({@code setQuotaInfoEnabled(true)}): {@code x-ms-resource-quota} and
 * {@code x-ms-resource-usage} as the SDK parses them — read here through the SDK's own parser (the one behind
 * {@code getDocumentCountUsage()}, {@code getDocumentUsage()}, {@code getCollectionSizeUsage()}, ...).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ContainerQuotaSdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    TestServers t;
    CosmosClient client;
    CosmosContainer container;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("quota");
        // 12,000 RU/s: two physical partitions
        client.getDatabase("quota").createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(12_000));
        container = client.getDatabase("quota").getContainer("c");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private FeedResponse<Object> quota() {
        CosmosContainerResponse r = container.read(new CosmosContainerRequestOptions().setQuotaInfoEnabled(true));
        assertThat(r.getMaxResourceQuota()).contains("documentsCount=-1");
        // the SDK's parser of these headers (ResourceResponse's is the same, behind CosmosContainerResponse)
        return ModelBridgeInternal.createFeedResponse(List.of(), r.getResponseHeaders());
    }

    private static ObjectNode item(String id, String pk, int padding) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("pad", "x".repeat(padding));
    }

    @Test
    void usageCountsTheItemsAndTheirBytes() {
        assertThat(t.engine.readContainer("quota", "c").partitions().size()).isEqualTo(2);
        long quotaKb = 2 * Limits.DEFAULTS.maxPhysicalPartitionBytes() / 1024;
        FeedResponse<Object> empty = quota();
        assertThat(empty.getDocumentCountUsage()).isZero();
        assertThat(empty.getDocumentUsage()).isZero();
        assertThat(empty.getCollectionSizeQuota()).isEqualTo(quotaKb);

        for (int i = 0; i < 30; i++) {
            container.createItem(item("i" + i, "k" + (i % 7), 2_000));
        }
        FeedResponse<Object> filled = quota();
        assertThat(filled.getDocumentCountUsage()).isEqualTo(30);
        // 30 items of about 2 KB each (their JSON with system properties)
        assertThat(filled.getDocumentUsage()).isBetween(60L, 70L);
        assertThat(filled.getCollectionSizeUsage()).isEqualTo(filled.getDocumentUsage());
        assertThat(filled.getCollectionSizeQuota()).isEqualTo(quotaKb);

        container.upsertItem(item("i0", "k0", 10));
        container.deleteItem("i1", new PartitionKey("k1"), new CosmosItemRequestOptions());
        FeedResponse<Object> after = quota();
        assertThat(after.getDocumentCountUsage()).isEqualTo(29);
        assertThat(after.getDocumentUsage()).isLessThan(filled.getDocumentUsage() - 3);
    }

    @Test
    void aPlainReadCarriesNoQuota() {
        CosmosContainerResponse r = container.read();
        assertThat(r.getMaxResourceQuota()).isNull();
        assertThat(r.getCurrentResourceQuotaUsage()).isNull();
    }
}
