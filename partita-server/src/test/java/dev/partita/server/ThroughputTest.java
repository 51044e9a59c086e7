package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.ThroughputResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Throughput (offers) read and replace, manual and autoscale, on containers and shared databases. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThroughputTest {
    TestServers t;
    CosmosClient client;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void containerManualThenAutoscale() {
        client.createDatabase("tp");
        CosmosDatabase db = client.getDatabase("tp");
        db.createContainer(new CosmosContainerProperties("m", "/pk"), ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = db.getContainer("m");

        ThroughputResponse read = c.readThroughput();
        assertThat(read.getProperties().getManualThroughput()).isEqualTo(400);
        assertThat(read.getMinThroughput()).isEqualTo(400);
        assertThat(read.isReplacePending()).isFalse();

        ThroughputResponse raised = c.replaceThroughput(ThroughputProperties.createManualThroughput(1200));
        assertThat(raised.getProperties().getManualThroughput()).isEqualTo(1200);
        assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(1200);
        assertThat(t.engine.readContainer("tp", "m").throughput().manualRus()).isEqualTo(1200);

        ThroughputResponse auto = c.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(4000));
        assertThat(auto.getProperties().getAutoscaleMaxThroughput()).isEqualTo(4000);
        assertThat(c.readThroughput().getProperties().getAutoscaleMaxThroughput()).isEqualTo(4000);
        assertThat(t.engine.readContainer("tp", "m").throughput().autoscaleMaxRus()).isEqualTo(4000);

        assertThat(c.replaceThroughput(ThroughputProperties.createManualThroughput(500))
                .getProperties().getManualThroughput()).isEqualTo(500);
        assertThatThrownBy(() -> c.replaceThroughput(ThroughputProperties.createManualThroughput(450)))
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }

    @Test
    void autoscaleAtCreationAndSharedDatabaseThroughput() {
        client.createDatabase("shared", ThroughputProperties.createManualThroughput(1000));
        CosmosDatabase db = client.getDatabase("shared");
        assertThat(db.readThroughput().getProperties().getManualThroughput()).isEqualTo(1000);
        db.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(6000));
        assertThat(db.readThroughput().getProperties().getAutoscaleMaxThroughput()).isEqualTo(6000);

        db.createContainer(new CosmosContainerProperties("a", "/pk"),
                ThroughputProperties.createAutoscaledThroughput(20_000));
        assertThat(db.getContainer("a").readThroughput().getProperties().getAutoscaleMaxThroughput())
                .isEqualTo(20_000);
        assertThat(t.engine.readContainer("shared", "a").partitions().size()).isEqualTo(2);

        // a container sharing the database's throughput has no offer: the offers query finds none and the SDK
        // raises its own 400 (CosmosAsyncContainer.readThroughputInternal)
        db.createContainer("inherits", "/pk");
        assertThatThrownBy(() -> db.getContainer("inherits").readThroughput())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400))
                .hasMessageContaining("No offers found for the resource inherits");
    }

    @Test
    void aContainerCreatedWithoutThroughputHasTheDefaultOffer() {
        client.createDatabase("plain");
        CosmosDatabase db = client.getDatabase("plain");
        db.createContainer("c", "/pk");
        CosmosContainer c = db.getContainer("c");

        ThroughputResponse read = c.readThroughput();
        assertThat(read.getProperties().getManualThroughput()).isEqualTo(400);
        assertThat(c.replaceThroughput(ThroughputProperties.createManualThroughput(600))
                .getProperties().getManualThroughput()).isEqualTo(600);
        assertThat(c.readThroughput().getProperties().getManualThroughput()).isEqualTo(600);
        // the database itself has no throughput, hence no offer
        assertThatThrownBy(db::readThroughput).isInstanceOf(CosmosException.class);
    }
}
