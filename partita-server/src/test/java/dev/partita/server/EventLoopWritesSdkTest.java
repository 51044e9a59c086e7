package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBulkItemRequestOptions;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.UniqueKey;
import com.azure.cosmos.models.UniqueKeyPolicy;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.server.EventLoopReadsTest.WatchedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Creates and upserts through the Java SDK: on a store that never blocks they run on the event loop (no hand-off to
 * a virtual thread), elsewhere on a virtual thread, with the same answers; and bulk requests, whose operations on one
 * partition commit as one store batch, still answer each operation on its own, a failed one taking back only its own
 * writes.
 */
class EventLoopWritesSdkTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PartitionKey P = new PartitionKey("p");

    private static ObjectNode doc(String id, int a, int b) {
        return JSON.createObjectNode().put("id", id).put("pk", "p").put("a", a).put("b", b);
    }

    private interface Scenario {
        void run(CosmosContainer c) throws Exception;
    }

    private static void withContainer(WatchedStore store, Scenario scenario) throws Exception {
        try (Engine engine = ConnectionTest.engine(store);
                PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                        Keys.emulator(), false));
                CosmosClient client = new CosmosClientBuilder().endpoint(server.endpoint())
                        .key(Keys.EMULATOR_PRIMARY).gatewayMode().consistencyLevel(ConsistencyLevel.SESSION)
                        .endpointDiscoveryEnabled(false).buildClient()) {
            client.createDatabase("d");
            CosmosContainerProperties props = new CosmosContainerProperties("c", "/pk");
            props.setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(
                    new UniqueKey(List.of("/a")), new UniqueKey(List.of("/b")))));
            client.getDatabase("d").createContainer(props);
            scenario.run(client.getDatabase("d").getContainer("c"));
        }
    }

    /** Creates, an upsert and a conflict; returns the kinds of thread (virtual or not) the store saw them on. */
    private static void writes(CosmosContainer c) {
        assertThat(c.createItem(doc("x", 1, 1), P, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(201);
        assertThat(c.upsertItem(doc("x", 1, 2), P, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(200);
        assertThat(c.upsertItem(doc("y", 3, 3), P, new CosmosItemRequestOptions()).getStatusCode()).isEqualTo(201);
        assertThatThrownBy(() -> c.createItem(doc("x", 9, 9), P, new CosmosItemRequestOptions()))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(409));
        // the body written on the loop is the one read back
        assertThat(c.readItem("x", P, ObjectNode.class).getItem().get("b").asInt()).isEqualTo(2);
    }

    @Test
    void onAStoreThatNeverBlocksCreatesAndUpsertsRunOnTheEventLoop() throws Exception {
        WatchedStore store = new WatchedStore(true);
        withContainer(store, c -> {
            writes(c);
            assertThat(store.virtualReaders).containsExactly(false);
        });
    }

    @Test
    void onAStoreThatMayBlockTheyRunOnAVirtualThread() throws Exception {
        WatchedStore store = new WatchedStore(false);
        withContainer(store, c -> {
            writes(c);
            assertThat(store.virtualReaders).containsExactly(true);
        });
    }

    private static Map<String, Integer> statuses(CosmosContainer c, List<CosmosItemOperation> ops) {
        Map<String, Integer> out = new TreeMap<>();
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
            assertThat(r.getException()).isNull();
            CosmosItemOperation op = r.getOperation();
            String id = op.getId() != null ? op.getId() : ((ObjectNode) op.getItem()).get("id").asText();
            out.put(op.getOperationType() + " " + id, r.getResponse().getStatusCode());
        }
        return out;
    }

    @Test
    void bulkOperationsFailOneByOneAndAFailedOneLeavesNothingBehind() throws Exception {
        withContainer(new WatchedStore(true), c -> {
            assertThat(statuses(c, List.of(CosmosBulkOperations.getCreateItemOperation(doc("x", 1, 1), P))))
                    .containsExactly(Map.entry("CREATE x", 201));
            // conflicts on its second unique key after claiming its first: that claim must go with it
            assertThat(statuses(c, List.of(CosmosBulkOperations.getCreateItemOperation(doc("y", 2, 1), P))))
                    .containsExactly(Map.entry("CREATE y", 409));
            assertThat(statuses(c, List.of(CosmosBulkOperations.getCreateItemOperation(doc("y", 3, 3), P))))
                    .containsExactly(Map.entry("CREATE y", 201));
            String xEtag = c.readItem("x", P, ObjectNode.class).getETag();
            List<CosmosItemOperation> ops = new ArrayList<>();
            ops.add(CosmosBulkOperations.getCreateItemOperation(doc("z", 2, 4), P));
            ops.add(CosmosBulkOperations.getReplaceItemOperation("y", doc("y", 3, 5), P,
                    new CosmosBulkItemRequestOptions().setIfMatchETag("\"stale\"")));
            ops.add(CosmosBulkOperations.getPatchItemOperation("x", P, CosmosPatchOperations.create().set("/n", 1),
                    new com.azure.cosmos.models.CosmosBulkPatchItemRequestOptions().setIfMatchETag(xEtag)));
            ops.add(CosmosBulkOperations.getDeleteItemOperation("missing", P));
            for (int i = 0; i < 30; i++) {
                ops.add(CosmosBulkOperations.getUpsertItemOperation(doc("u" + i, 100 + i, 100 + i), P));
            }
            Map<String, Integer> got = statuses(c, ops);
            assertThat(got).containsEntry("CREATE z", 201).containsEntry("REPLACE y", 412)
                    .containsEntry("PATCH x", 200).containsEntry("DELETE missing", 404).hasSize(34);
            assertThat(got.entrySet().stream().filter(e -> e.getKey().startsWith("UPSERT")))
                    .allSatisfy(e -> assertThat(e.getValue()).isEqualTo(201));
            assertThat(c.readItem("y", P, ObjectNode.class).getItem().get("b").asInt()).isEqualTo(3);
            assertThat(c.readItem("x", P, ObjectNode.class).getItem().get("n").asInt()).isEqualTo(1);
            assertThat(c.readItem("u29", P, ObjectNode.class).getItem().get("a").asInt()).isEqualTo(129);
        });
    }

    /** What the SDK reads from each bulk and batch result: status, charge, etag and the item where there is one. */
    @Test
    void bulkAndBatchResultsCarryTheEtagAndTheItemAsAPointReadGivesThem() throws Exception {
        withContainer(new WatchedStore(true), c -> {
            ObjectNode shown = doc("s", 7, 7).put("price", 1.5).put("name", "caf\u00e9 \"q\"");
            List<CosmosItemOperation> ops = List.of(CosmosBulkOperations.getUpsertItemOperation(doc("r", 5, 5), P),
                    CosmosBulkOperations.getUpsertItemOperation(shown, P,
                            new CosmosBulkItemRequestOptions().setContentResponseOnWriteEnabled(true)),
                    CosmosBulkOperations.getReadItemOperation("x", P));
            c.createItem(doc("x", 1, 1), P, new CosmosItemRequestOptions());
            Map<String, com.azure.cosmos.models.CosmosBulkItemResponse> got = new TreeMap<>();
            for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops)) {
                CosmosItemOperation op = r.getOperation();
                got.put(op.getId() != null ? op.getId() : ((ObjectNode) op.getItem()).get("id").asText(),
                        r.getResponse());
            }
            for (String id : List.of("r", "s", "x")) {
                var read = c.readItem(id, P, ObjectNode.class);
                assertThat(got.get(id).getETag()).as(id).isEqualTo(read.getETag());
                assertThat(got.get(id).getRequestCharge()).as(id).isPositive();
                if (!id.equals("r")) {
                    assertThat(got.get(id).getItem(ObjectNode.class)).as(id).isEqualTo(read.getItem());
                }
            }
            assertThat(got.get("s").getItem(ObjectNode.class).get("name").asText()).isEqualTo("caf\u00e9 \"q\"");
            com.azure.cosmos.models.CosmosBatch batch = com.azure.cosmos.models.CosmosBatch.createCosmosBatch(P);
            batch.readItemOperation("s");
            var result = c.executeCosmosBatch(batch).getResults().get(0);
            assertThat(result.getItem(ObjectNode.class)).isEqualTo(c.readItem("s", P, ObjectNode.class).getItem());
        });
    }
}
