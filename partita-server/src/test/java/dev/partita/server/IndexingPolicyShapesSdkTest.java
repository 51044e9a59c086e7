package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerRequestOptions;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingMode;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.SpatialSpec;
import com.azure.cosmos.models.SpatialType;
import dev.partita.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Indexing policies through the Java SDK's model: a lazy policy reads back consistent, the legacy root {@code /} as
 * {@code /*}, spatial indexes with every type, {@code _etag} excluded once; the index transformation progress of a read
 * with quota info; the service's 400s for unparsable paths and a policy without the root.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IndexingPolicyShapesSdkTest {
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("shapes");
        db = client.getDatabase("shapes");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    private CosmosContainerProperties create(String id, IndexingPolicy policy) {
        CosmosContainerProperties props = new CosmosContainerProperties(id, "/pk");
        props.setIndexingPolicy(policy);
        db.createContainer(props);
        return db.getContainer(id).read().getProperties();
    }

    private static List<String> paths(List<?> entries) {
        return entries.stream().map(e -> e instanceof IncludedPath i ? i.getPath() : ((ExcludedPath) e).getPath())
                .toList();
    }

    @Test
    void aLazyPolicyWithTheLegacyRootReadsBackConsistentWithTheRootAsSlashStar() {
        IndexingPolicy p = new IndexingPolicy();
        p.setIndexingMode(IndexingMode.LAZY);
        p.setIncludedPaths(List.of(new IncludedPath("/")));
        p.setExcludedPaths(List.of(new ExcludedPath("/_etag/?"), new ExcludedPath("/\"systemMetadata\"/*")));
        IndexingPolicy read = create("lazy", p).getIndexingPolicy();
        assertThat(read.getIndexingMode()).isEqualTo(IndexingMode.CONSISTENT);
        assertThat(read.isAutomatic()).isTrue();
        assertThat(paths(read.getIncludedPaths())).containsExactly("/*");
        // the policy's own exclusion of _etag stands for the one the service adds
        assertThat(paths(read.getExcludedPaths())).containsExactly("/_etag/?", "/\"systemMetadata\"/*");
    }

    @Test
    void spatialIndexesReadBackWithEveryType() {
        IndexingPolicy p = new IndexingPolicy();
        p.setSpatialIndexes(List.of(new SpatialSpec().setPath("/location/*").setSpatialTypes(List.of(SpatialType.POINT))));
        IndexingPolicy read = create("spatial", p).getIndexingPolicy();
        assertThat(read.getSpatialIndexes()).hasSize(1);
        assertThat(read.getSpatialIndexes().get(0).getPath()).isEqualTo("/location/*");
        assertThat(read.getSpatialIndexes().get(0).getSpatialTypes()).containsExactly(SpatialType.POINT,
                SpatialType.LINE_STRING, SpatialType.POLYGON, SpatialType.MULTI_POLYGON);
    }

    @Test
    void aReadWithQuotaInfoReportsTheIndexTransformationProgress() {
        create("progress", new IndexingPolicy());
        CosmosContainer c = db.getContainer("progress");
        c.createItem(Json.object().put("id", "a").put("pk", "p").put("n", 1));
        CosmosContainerProperties props = c.read().getProperties();
        IndexingPolicy replaced = new IndexingPolicy();
        replaced.setExcludedPaths(List.of(new ExcludedPath("/n/?")));
        props.setIndexingPolicy(replaced);
        c.replace(props);
        CosmosContainerResponse r = c.read(new CosmosContainerRequestOptions().setQuotaInfoEnabled(true));
        assertThat(r.getIndexTransformationProgress()).isEqualTo(100);
        assertThat(r.getResponseHeaders()).doesNotContainKey("x-ms-documentdb-collection-lazy-indexing-progress");
        assertThat(c.read().getIndexTransformationProgress()).as("only when asked").isEqualTo(-1);
    }

    @Test
    void unparsablePathsAndAMissingRootAreTheServices400s() {
        String unparsable = "could not be accepted, failed near position ";
        assertBadRequest(List.of("/*"), List.of("/a b/?"), unparsable + "'2'");
        assertBadRequest(List.of("/*"), List.of("/a/*/b/?"), unparsable + "'3'");
        assertBadRequest(List.of("/*", "/tags/[]/?", "/x"), List.of(), unparsable + "'1'");
        // (the SDK's message escapes the quotes around the "/")
        assertBadRequest(List.of("/a/?"), List.of(), "is not provided in any of the path type sets. Please provide this"
                + " path in one of the sets.");
    }

    private void assertBadRequest(List<String> included, List<String> excluded, String message) {
        IndexingPolicy p = new IndexingPolicy();
        p.setIncludedPaths(included.stream().map(IncludedPath::new).toList());
        p.setExcludedPaths(excluded.stream().map(ExcludedPath::new).toList());
        CosmosContainerProperties props = new CosmosContainerProperties("bad", "/pk");
        props.setIndexingPolicy(p);
        assertThatThrownBy(() -> db.createContainer(props)).as(included + " " + excluded)
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getMessage()).contains(message);
                });
    }
}
