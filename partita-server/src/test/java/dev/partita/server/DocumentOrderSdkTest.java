package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyBuilder;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A query without ORDER BY answers a physical partition's items in document order — the order they were created in —
 * whatever their partition keys and ids, page after page (the JavaScript SDK's own query tests read three items back
 * in the order they were created, through pages of two). A replace keeps an item's place; a delete and a new create
 * put it last. Every id here is random, so key order would differ.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentOrderSdkTest {
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("o");
        db = client.getDatabase("o");
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void readAllAndFilteredQueriesComeInCreationOrderAcrossPages() {
        db.createContainer("byId", "/id");
        CosmosContainer c = db.getContainer("byId");
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = UUID.randomUUID().toString();
            c.createItem(Json.object().put("id", id).put("kind", i % 2 == 0 ? "even" : "odd"));
            created.add(id);
        }
        assertThat(ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions(), 5)).containsExactlyElementsOf(created);
        // answered through the index of /kind
        assertThat(ids(c, "SELECT * FROM c WHERE c.kind = 'even'", new CosmosQueryRequestOptions(), 2))
                .containsExactlyElementsOf(every(created, 0));
        assertThat(ids(c, "SELECT TOP 3 * FROM c", new CosmosQueryRequestOptions(), 2))
                .containsExactlyElementsOf(created.subList(0, 3));

        // a replace keeps the item's place; delete and create again puts it last
        String first = created.get(0);
        c.replaceItem(Json.object().put("id", first).put("kind", "even").put("v", 2), first, new PartitionKey(first),
                new CosmosItemRequestOptions());
        String second = created.get(1);
        c.deleteItem(second, new PartitionKey(second), new CosmosItemRequestOptions());
        c.createItem(Json.object().put("id", second).put("kind", "odd"));
        List<String> expected = new ArrayList<>(created);
        expected.remove(second);
        expected.add(second);
        assertThat(ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions(), 4)).containsExactlyElementsOf(expected);
    }

    @Test
    void hierarchicalKeysOrderByCreationAcrossLogicalPartitions() {
        PartitionKeyDefinition pk = new PartitionKeyDefinition();
        pk.setPaths(List.of("/prop1", "/prop2"));
        pk.setKind(PartitionKind.MULTI_HASH);
        pk.setVersion(PartitionKeyDefinitionVersion.V2);
        db.createContainer(new CosmosContainerProperties("hpk", pk));
        CosmosContainer c = db.getContainer("hpk");
        c.createItem(Json.object().put("id", "doc1").put("prop1", "a").put("prop2", 1));
        c.createItem(Json.object().put("id", "doc2").put("prop1", "a").put("prop2", 1));
        c.createItem(Json.object().put("id", "doc3").put("prop1", "a").put("prop2", 1));
        c.createItem(Json.object().put("id", "doc4").put("prop1", "b").put("prop2", 2));
        c.createItem(Json.object().put("id", "doc0").put("prop1", "a").put("prop2", 1));
        assertThat(ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions(), 2))
                .containsExactly("doc1", "doc2", "doc3", "doc4", "doc0");
        CosmosQueryRequestOptions one = new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKeyBuilder().add("a").add(1).build());
        assertThat(ids(c, "SELECT * FROM c", one, 2)).containsExactly("doc1", "doc2", "doc3", "doc0");
    }

    @Test
    void eachPhysicalPartitionAnswersInItsCreationOrder() {
        db.createContainer(new CosmosContainerProperties("wide", "/pk"), ThroughputProperties.createManualThroughput(
                18_000));
        CosmosContainer c = db.getContainer("wide");
        List<FeedRange> ranges = c.getFeedRanges();
        assertThat(ranges).hasSizeGreaterThan(1);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = UUID.randomUUID().toString();
            c.createItem(Json.object().put("id", id).put("pk", UUID.randomUUID().toString()));
            created.add(id);
        }
        Set<String> seen = new HashSet<>();
        for (FeedRange range : ranges) {
            List<String> got = ids(c, "SELECT * FROM c", new CosmosQueryRequestOptions().setFeedRange(range), 3);
            List<String> inCreationOrder = created.stream().filter(got::contains).toList();
            assertThat(got).containsExactlyElementsOf(inCreationOrder);
            seen.addAll(got);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(created);
    }

    /**
     * The SDK resumes an ORDER BY page between items of equal keys by their {@code _rid}s' document numbers, read
     * little-endian: past 255 items in a partition a big-endian counter reads out of order, and resumed pages repeat
     * or skip items.
     */
    @Test
    void orderByTiesResumeByRidPastOneByteOfDocuments() {
        db.createContainer("ties", "/pk");
        CosmosContainer c = db.getContainer("ties");
        for (int i = 0; i < 300; i++) {
            c.createItem(Json.object().put("id", "d" + i).put("pk", "p").put("amount", 1));
        }
        List<String> got = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            FeedResponse<JsonNode> p = c.queryItems("SELECT * FROM c ORDER BY c.amount", new CosmosQueryRequestOptions(),
                    JsonNode.class).iterableByPage(token, 100).iterator().next();
            p.getResults().forEach(d -> got.add(d.get("id").asText()));
            token = p.getContinuationToken();
        } while (token != null && ++pages < 10);
        assertThat(got).hasSize(300).doesNotHaveDuplicates();
        List<String> inCreationOrder = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            inCreationOrder.add("d" + i);
        }
        assertThat(got).containsExactlyElementsOf(inCreationOrder);
    }

    private static List<String> every(List<String> ids, int from) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < ids.size(); i += 2) {
            out.add(ids.get(i));
        }
        return out;
    }

    private static List<String> ids(CosmosContainer c, String query, CosmosQueryRequestOptions options, int page) {
        List<String> out = new ArrayList<>();
        for (FeedResponse<JsonNode> p : c.queryItems(query, options, JsonNode.class).iterableByPage(page)) {
            p.getResults().forEach(d -> out.add(d.get("id").asText()));
        }
        return out;
    }
}
