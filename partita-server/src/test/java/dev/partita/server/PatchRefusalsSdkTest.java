package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A refused patch says what the service says (the partial-document-update troubleshooting table, and the Java SDK's
 * PatchTest.itemPatchFailure), naming its operation, and leaves the item as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PatchRefusalsSdkTest {
    TestServers t;
    CosmosClient client;
    CosmosContainer c;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("p");
        client.getDatabase("p").createContainer("c", "/pk");
        c = client.getDatabase("p").getContainer("c");
        c.createItem(new ObjectMapper().createObjectNode().put("id", "a").put("pk", "p").put("name", "x")
                .set("list", new ObjectMapper().createArrayNode().add(1)));
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    void refused(CosmosPatchOperations ops, String says) {
        assertThatThrownBy(() -> c.patchItem("a", new PartitionKey("p"), ops, JsonNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getMessage()).contains(says);
                });
    }

    @Test
    void eachRefusalInTheServicesWords() {
        refused(CosmosPatchOperations.create().add("/nonExistentParent/child", "v"), "Add Operation only support"
                + " adding a leaf node of an existing node(array or object), no path found beyond: 'nonExistentParent'");
        refused(CosmosPatchOperations.create().set("/name", "y").set("/a/b", 1), "For Operation(1): Given Operation"
                + " can only create a child object of an existing node(array or object) and cannot create path"
                + " recursively, no path found beyond: 'a'");
        refused(CosmosPatchOperations.create().replace("/absent", 1), "Node(/absent) to be replaced is absent.");
        refused(CosmosPatchOperations.create().remove("/absent"), "Node(/absent) to be removed is absent.");
        refused(CosmosPatchOperations.create().increment("/name", 1), "Node(/name) is not a number.");
        refused(CosmosPatchOperations.create().add("/list/5", 1), "Index(5) to operate on is out of array bounds.");
        refused(CosmosPatchOperations.create().set("/_ts", 1), "Cannot patch system property '_ts'");
        JsonNode after = c.readItem("a", new PartitionKey("p"), JsonNode.class).getItem();
        assertThat(after.get("name").asText()).as("nothing of a refused patch applies").isEqualTo("x");
    }

    @Test
    void aPatchOfAnAbsentItemIsTheServicesNotFound() {
        assertThatThrownBy(() -> c.patchItem("absent", new PartitionKey("p"), CosmosPatchOperations.create()
                .set("/name", "y"), JsonNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(404);
                    assertThat(e.getMessage()).contains("Resource Not Found");
                });
    }
}
