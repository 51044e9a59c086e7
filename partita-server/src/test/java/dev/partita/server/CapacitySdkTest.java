package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.ThroughputProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import dev.partita.core.store.MemoryStore;
import java.util.Iterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Request charges and throughput through the official SDK: every response carries the cost model's price, and the
 * throughput matrix (manual, autoscale, shared, serverless x create, change, read) reaches the partition budgets.
 */
class CapacitySdkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    final TestClock clock = new TestClock();
    Engine engine;
    PartitaServer server;
    CosmosClient client;

    void start(boolean serverless) {
        start(serverless, Consistency.SESSION);
    }

    void start(boolean serverless, Consistency accountDefault) {
        engine = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS);
        engine.capacity().serverless(serverless).defaultConsistency(accountDefault);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
        client = new com.azure.cosmos.CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        engine.close();
    }

    static ObjectNode sized(String id, String pk, int bytes) {
        ObjectNode o = JSON.createObjectNode().put("id", id).put("pk", pk);
        // ~200 bytes of system properties are added when stored
        return o.put("text", "z".repeat(Math.max(0, bytes - 230)));
    }

    double rate(String db, String container, int range) {
        ContainerInfo c = engine.readContainer(db, container);
        return engine.capacity().budget(c, c.partitions().partitions().get(range).id()).rate();
    }

    // ---- charges

    private static CosmosItemRequestOptions at(com.azure.cosmos.ConsistencyLevel level) {
        CosmosItemRequestOptions o = new CosmosItemRequestOptions();
        o.setConsistencyLevel(level);
        return o;
    }

    /** Reads at Strong or Bounded Staleness read two replicas: double; a request may relax its account's level. */
    @Test
    void aStrongAccountPricesItsReadsAsQuorumReadsAndRequestsMayRelaxIt() {
        start(false, Consistency.STRONG);
        client.createDatabase("db");
        CosmosDatabase db = client.getDatabase("db");
        db.createContainer(new CosmosContainerProperties("c", "/pk"), ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = db.getContainer("c");
        c.createItem(sized("small", "a", 1024), new PartitionKey("a"), new CosmosItemRequestOptions());
        assertThat(c.readItem("small", new PartitionKey("a"), ObjectNode.class).getRequestCharge()).isEqualTo(2.0);
        assertThat(c.readItem("small", new PartitionKey("a"), at(com.azure.cosmos.ConsistencyLevel.BOUNDED_STALENESS),
                ObjectNode.class).getRequestCharge()).isEqualTo(2.0);
        assertThat(c.readItem("small", new PartitionKey("a"), at(com.azure.cosmos.ConsistencyLevel.SESSION),
                ObjectNode.class).getRequestCharge()).isEqualTo(1.0);
        assertThat(c.readItem("small", new PartitionKey("a"), at(com.azure.cosmos.ConsistencyLevel.EVENTUAL),
                ObjectNode.class).getRequestCharge()).isEqualTo(1.0);
    }

    @Test
    void everyResponseCarriesTheCostModelsPrice() {
        start(false);
        client.createDatabase("db");
        CosmosDatabase db = client.getDatabase("db");
        db.createContainer(new CosmosContainerProperties("c", "/pk"), ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = db.getContainer("c");

        var created = c.createItem(sized("small", "a", 1024), new PartitionKey("a"), new CosmosItemRequestOptions());
        assertThat(created.getRequestCharge()).isGreaterThanOrEqualTo(5.0).isLessThan(7.0);
        c.createItem(sized("large", "a", 100 * 1024), new PartitionKey("a"), new CosmosItemRequestOptions());

        assertThat(c.readItem("small", new PartitionKey("a"), ObjectNode.class).getRequestCharge()).isEqualTo(1.0);
        assertThat(c.readItem("large", new PartitionKey("a"), ObjectNode.class).getRequestCharge())
                .isCloseTo(10.0, within(1.0));
        String etag = c.readItem("large", new PartitionKey("a"), ObjectNode.class).getETag();
        var notModified = c.readItem("large", new PartitionKey("a"),
                new CosmosItemRequestOptions().setIfNoneMatchETag(etag), ObjectNode.class);
        assertThat(notModified.getStatusCode()).isEqualTo(304);
        assertThat(notModified.getRequestCharge()).isEqualTo(1.0);

        // a Session account refuses a read that asks for more (and charges the refusal)
        assertThatThrownBy(() -> c.readItem("small", new PartitionKey("a"),
                at(com.azure.cosmos.ConsistencyLevel.BOUNDED_STALENESS), ObjectNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("ConsistencyLevel BoundedStaleness specified in the request"
                            + " is invalid when service is configured with consistency level Session");
                });
        assertThat(c.readItem("small", new PartitionKey("a"), at(com.azure.cosmos.ConsistencyLevel.EVENTUAL),
                ObjectNode.class).getRequestCharge()).isEqualTo(1.0);

        double replaced = c.replaceItem(sized("small", "a", 1024), "small", new PartitionKey("a"),
                new CosmosItemRequestOptions()).getRequestCharge();
        assertThat(replaced).isGreaterThan(created.getRequestCharge());
        assertThat(c.deleteItem("large", new PartitionKey("a"), new CosmosItemRequestOptions()).getRequestCharge())
                .isPositive();

        // a query by id without the partition key: about three times the point read
        Iterator<FeedResponse<ObjectNode>> pages = c.queryItems("SELECT * FROM c WHERE c.id = 'small'",
                new CosmosQueryRequestOptions(), ObjectNode.class).iterableByPage().iterator();
        double query = 0;
        while (pages.hasNext()) {
            query += pages.next().getRequestCharge();
        }
        assertThat(query).isBetween(2.78, 3.3);

        // a failed read is charged; a batch carries per-operation charges that add up
        assertThatThrownBy(() -> c.readItem("nope", new PartitionKey("a"), ObjectNode.class))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getRequestCharge()).isEqualTo(1.0));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("b"));
        batch.createItemOperation(sized("b1", "b", 500));
        batch.createItemOperation(sized("b2", "b", 500));
        batch.readItemOperation("b1");
        CosmosBatchResponse br = c.executeCosmosBatch(batch);
        assertThat(br.isSuccessStatusCode()).isTrue();
        double sum = br.getResults().stream().mapToDouble(r -> r.getRequestCharge()).sum();
        assertThat(br.getResults().get(2).getRequestCharge()).isEqualTo(1.0);
        assertThat(br.getRequestCharge()).isCloseTo(sum, within(0.011)).isGreaterThan(10);

        assertThat(c.read().getRequestCharge()).as("metadata").isEqualTo(1.0);
    }

    // ---- throughput matrix

    @Test
    void manualThroughputCreateChangeReadReachesTheBudgetsAndSplits() {
        start(false);
        client.createDatabase("db");
        CosmosDatabase db = client.getDatabase("db");
        db.createContainer(new CosmosContainerProperties("m", "/pk"), ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = db.getContainer("m");
        assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(400);
        assertThat(rate("db", "m", 0)).isEqualTo(400);
        c.replaceThroughput(ThroughputProperties.createManualThroughput(1_000));
        assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(1_000);
        assertThat(rate("db", "m", 0)).as("at once").isEqualTo(1_000);
        c.replaceThroughput(ThroughputProperties.createManualThroughput(25_000));
        assertThat(c.getFeedRanges()).as("25,000 RU/s needs three partitions").hasSize(3);
        c.createItem(sized("after-split", "x", 300), new PartitionKey("x"), new CosmosItemRequestOptions());
        assertThat(c.readItem("after-split", new PartitionKey("x"), ObjectNode.class).getStatusCode()).isEqualTo(200);
        c.replaceThroughput(ThroughputProperties.createManualThroughput(400));
        assertThat(c.getFeedRanges()).as("lowering never merges").hasSize(3);
        assertThatThrownBy(() -> c.replaceThroughput(ThroughputProperties.createManualThroughput(450)))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }

    @Test
    void autoscaleThroughputCreateChangeRead() {
        start(false);
        client.createDatabase("db");
        CosmosDatabase db = client.getDatabase("db");
        db.createContainer(new CosmosContainerProperties("a", "/pk"),
                ThroughputProperties.createAutoscaledThroughput(4_000));
        CosmosContainer c = db.getContainer("a");
        var read = c.readThroughput().getProperties();
        assertThat(read.getAutoscaleMaxThroughput()).isEqualTo(4_000);
        assertThat(rate("db", "a", 0)).as("the partition may scale to the max").isEqualTo(4_000);
        assertThat(engine.capacity().currentThroughput(engine.readContainer("db", "a"))).as("the floor").isEqualTo(400);
        c.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(30_000));
        assertThat(c.readThroughput().getProperties().getAutoscaleMaxThroughput()).isEqualTo(30_000);
        assertThat(c.getFeedRanges()).hasSize(3);
        assertThat(rate("db", "a", 0)).isEqualTo(10_000);
        assertThatThrownBy(() -> c.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(4_500)))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }

    @Test
    void sharedDatabaseThroughputCreateChangeRead() {
        start(false);
        client.createDatabase("shared", ThroughputProperties.createManualThroughput(400));
        CosmosDatabase db = client.getDatabase("shared");
        db.createContainer("a", "/pk");
        db.createContainer("b", "/pk");
        assertThat(db.readThroughput().getProperties().getManualThroughput()).isEqualTo(400);
        assertThat(rate("shared", "a", 0)).isEqualTo(400);
        db.replaceThroughput(ThroughputProperties.createManualThroughput(1_000));
        assertThat(db.readThroughput().getProperties().getManualThroughput()).isEqualTo(1_000);
        assertThat(rate("shared", "b", 0)).isEqualTo(1_000);
        // both containers draw on the one pool
        db.getContainer("a").createItem(sized("x", "p", 500), new PartitionKey("p"), new CosmosItemRequestOptions());
        ContainerInfo a = engine.readContainer("shared", "a");
        ContainerInfo b = engine.readContainer("shared", "b");
        assertThat(engine.capacity().budget(b, "0").usedThisWindow(clock.millis()))
                .isEqualTo(engine.capacity().budget(a, "0").usedThisWindow(clock.millis())).isPositive();
    }

    @Test
    void serverlessHasNoProvisionedThroughput() {
        start(true);
        assertThatThrownBy(() -> client.createDatabase("db", ThroughputProperties.createManualThroughput(400)))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
        client.createDatabase("db");
        CosmosDatabase db = client.getDatabase("db");
        assertThatThrownBy(() -> db.createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(400)))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
        db.createContainer("c", "/pk");
        CosmosContainer c = db.getContainer("c");
        assertThat(c.createItem(sized("x", "p", 500), new PartitionKey("p"), new CosmosItemRequestOptions())
                .getRequestCharge()).isPositive();
        assertThatThrownBy(c::readThroughput).isInstanceOf(CosmosException.class);
        assertThat(rate("db", "c", 0)).isEqualTo(5_000);
    }
}
