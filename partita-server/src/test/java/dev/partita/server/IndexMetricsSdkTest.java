package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.implementation.IndexUtilizationInfo;
import com.azure.cosmos.implementation.SingleIndexUtilizationEntity;
import com.azure.cosmos.implementation.CompositeIndexUtilizationEntity;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A query with {@code setIndexMetricsEnabled(true)} gets {@code x-ms-cosmos-index-utilization}, base64 JSON that the
 * SDK's own {@code IndexUtilizationInfo} reads: the filter's indexed paths as utilized single indexes, its excluded
 * paths as potential ones, and the composite index its filter is (or would be) served from. Without the option
 * there is no header. (ORDER BY shapes: {@code IndexUtilizationTest} in core.)
 */
class IndexMetricsSdkTest {
    private static TestServers servers;
    private static CosmosClient client;
    private static CosmosContainer container;

    @BeforeAll
    static void start() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        servers = TestServers.http();
        client = servers.client();
        client.createDatabase("metrics");
        CosmosContainerProperties p = new CosmosContainerProperties("items", "/pk");
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/*")));
        policy.setExcludedPaths(List.of(new ExcludedPath("/secret/?")));
        CompositePath name = new CompositePath();
        name.setPath("/name");
        CompositePath age = new CompositePath();
        age.setPath("/age");
        age.setOrder(CompositePathSortOrder.DESCENDING);
        CompositePath ageAscending = new CompositePath();
        ageAscending.setPath("/age");
        policy.setCompositeIndexes(List.of(List.of(name, age), List.of(name, ageAscending)));
        p.setIndexingPolicy(policy);
        client.getDatabase("metrics").createContainer(p);
        container = client.getDatabase("metrics").getContainer("items");
        container.createItem(Json.parse("{\"id\":\"1\",\"pk\":\"a\",\"name\":\"x\",\"age\":3,\"secret\":1}", "doc"));
    }

    @AfterAll
    static void stop() {
        client.close();
        servers.close();
    }

    private static FeedResponse<JsonNode> firstPage(String query, boolean indexMetrics) {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setIndexMetricsEnabled(indexMetrics)
                .setPartitionKey(new PartitionKey("a"));
        return container.queryItems(query, o, JsonNode.class).iterableByPage().iterator().next();
    }

    private static IndexUtilizationInfo metrics(FeedResponse<JsonNode> page) throws Exception {
        String header = page.getResponseHeaders().get("x-ms-cosmos-index-utilization");
        assertThat(header).isNotNull();
        String json = new String(Base64.getDecoder().decode(header), StandardCharsets.UTF_8);
        return new ObjectMapper().readValue(json, IndexUtilizationInfo.class);
    }

    @Test
    void theFiltersIndexedPathsAreUtilizedAndExcludedOnesPotential() throws Exception {
        IndexUtilizationInfo info = metrics(firstPage(
                "SELECT * FROM c WHERE c.name = 'x' AND c.secret > 0", true));
        assertThat(info.getUtilizedSingleIndexes()).extracting(SingleIndexUtilizationEntity::getIndexDocumentExpression)
                .containsExactly("/name/?");
        assertThat(info.getPotentialSingleIndexes())
                .extracting(SingleIndexUtilizationEntity::getIndexDocumentExpression).containsExactly("/secret/?");
        assertThat(info.getPotentialCompositeIndexes())
                .extracting(CompositeIndexUtilizationEntity::getIndexDocumentExpressions)
                .containsExactly(List.of("/name ASC", "/secret ASC"));
    }

    @Test
    void aFilterServedByACompositeIndexUsesIt() throws Exception {
        IndexUtilizationInfo info = metrics(firstPage("SELECT * FROM c WHERE c.name = 'x' AND c.age > 1", true));
        assertThat(info.getUtilizedCompositeIndexes())
                .extracting(CompositeIndexUtilizationEntity::getIndexDocumentExpressions)
                .containsExactly(List.of("/name ASC", "/age ASC"));
        assertThat(info.getPotentialCompositeIndexes()).isEmpty();
        assertThat(firstPage("SELECT * FROM c WHERE c.name = 'x'", false).getResponseHeaders())
                .doesNotContainKey("x-ms-cosmos-index-utilization");
    }
}
