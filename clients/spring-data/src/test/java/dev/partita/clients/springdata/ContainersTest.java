package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.spring.data.cosmos.core.CosmosTemplate;
import com.azure.spring.data.cosmos.repository.support.CosmosEntityInformation;
import com.azure.spring.data.cosmos.repository.support.SimpleCosmosRepository;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the framework created at startup from the annotations, read back through the SDK. */
class ContainersTest extends PartitaSpringTest {
    @Autowired
    CosmosTemplate template;

    @Autowired
    CosmosAsyncClient client;

    @Autowired
    VisitRepository visits;

    private CosmosAsyncContainer container(String name) {
        return client.getDatabase("shop").getContainer(name);
    }

    @Test
    void ordersHasTheAnnotatedIndexingPolicyAndThroughput() {
        CosmosContainerProperties orders = template.getContainerProperties("orders");
        assertThat(orders.getPartitionKeyDefinition().getPaths()).containsExactly("/customerId");
        assertThat(orders.getDefaultTimeToLiveInSeconds()).isEqualTo(-1);
        IndexingPolicy policy = orders.getIndexingPolicy();
        assertThat(policy.isAutomatic()).isTrue();
        assertThat(policy.getIncludedPaths()).extracting(IncludedPath::getPath).containsExactlyInAnyOrder(
                "/customerId/?", "/status/?", "/total/?", "/placedAt/?", "/city/?", "/tags/[]/?", "/note/?",
                "/shipTo/zip/?");
        assertThat(policy.getExcludedPaths()).extracting(ExcludedPath::getPath).contains("/*");
        assertThat(policy.getCompositeIndexes()).hasSize(1);
        List<CompositePath> composite = policy.getCompositeIndexes().get(0);
        assertThat(composite).extracting(CompositePath::getPath).containsExactly("/status", "/total");
        assertThat(composite).extracting(CompositePath::getOrder)
                .containsExactly(CompositePathSortOrder.ASCENDING, CompositePathSortOrder.DESCENDING);
        assertThat(container("orders").readThroughput().block().getProperties().getManualThroughput())
                .isEqualTo(400);
    }

    @Test
    void accountsHasTheUniqueKey() {
        CosmosContainerProperties accounts = template.getContainerProperties("accounts");
        assertThat(accounts.getPartitionKeyDefinition().getPaths()).containsExactly("/tenant");
        assertThat(accounts.getUniqueKeyPolicy().getUniqueKeys()).hasSize(1);
        assertThat(accounts.getUniqueKeyPolicy().getUniqueKeys().get(0).getPaths()).containsExactly("/email");
    }

    @Test
    void visitsHasAHierarchicalKeyAndATimeToLive() {
        CosmosContainerProperties props = template.getContainerProperties("visits");
        assertThat(props.getPartitionKeyDefinition().getKind()).isEqualTo(PartitionKind.MULTI_HASH);
        assertThat(props.getPartitionKeyDefinition().getVersion()).isEqualTo(PartitionKeyDefinitionVersion.V2);
        assertThat(props.getPartitionKeyDefinition().getPaths()).containsExactly("/tenantId", "/userId");
        assertThat(props.getDefaultTimeToLiveInSeconds()).isEqualTo(3600);
        assertThat(container("visits").readThroughput().block().getProperties().getAutoscaleMaxThroughput())
                .isEqualTo(1000);
    }

    @Test
    void hierarchicalKeysThroughTheRepository() {
        visits.deleteAll();
        visits.saveAll(List.of(new Visit("v1", "t1", "u1", "/home"), new Visit("v2", "t1", "u2", "/cart"),
                new Visit("v3", "t1", "u1", "/pay"), new Visit("v4", "t2", "u1", "/home")));
        assertThat(visits.findById("v2", new PartitionKeyBuilder().add("t1").add("u2").build()))
                .map(Visit::getPage).contains("/cart");
        assertThat(visits.findById("v2", new PartitionKeyBuilder().add("t1").add("u1").build())).isEmpty();
        assertThat(visits.findByTenantId("t1")).extracting(Visit::getId).containsExactlyInAnyOrder("v1", "v2", "v3");
        assertThat(visits.findByTenantIdAndUserId("t1", "u1")).extracting(Visit::getId)
                .containsExactlyInAnyOrder("v1", "v3");
        visits.deleteById("v1", new PartitionKeyBuilder().add("t1").add("u1").build());
        assertThat(visits.count()).isEqualTo(3);
    }

    @Test
    void anOverwrittenPolicyIsPutBackWhenTheRepositoryStarts() {
        CosmosContainerProperties products = template.getContainerProperties("products");
        assertThat(products.getIndexingPolicy().getExcludedPaths()).extracting(ExcludedPath::getPath)
                .contains("/description/?");

        // someone replaces the policy by hand: the default one, everything indexed
        products.setIndexingPolicy(new IndexingPolicy());
        template.replaceContainerProperties("products", products);
        assertThat(template.getContainerProperties("products").getIndexingPolicy().getExcludedPaths())
                .extracting(ExcludedPath::getPath).doesNotContain("/description/?");

        @SuppressWarnings("unchecked")
        CosmosEntityInformation<Product, String> product =
                (CosmosEntityInformation<Product, String>) CosmosEntityInformation.getInstance(Product.class);
        new SimpleCosmosRepository<>(product, template);
        assertThat(template.getContainerProperties("products").getIndexingPolicy().getExcludedPaths())
                .extracting(ExcludedPath::getPath).contains("/description/?");
    }
}
