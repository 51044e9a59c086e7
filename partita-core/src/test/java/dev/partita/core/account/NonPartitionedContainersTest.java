package dev.partita.core.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.request.ApiVersion;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A container body without a partition key: refused by the current API, a non-partitioned container before it. */
class NonPartitionedContainersTest {
    static final ApiVersion OLD = new ApiVersion("2018-09-17");
    Engine engine;

    @BeforeEach
    void open() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.createDatabase(body("{\"id\":\"db\"}"), Throughput.NONE);
        engine.createDatabase(body("{\"id\":\"shared\"}"), Throughput.manual(400));
    }

    static ObjectNode body(String json) {
        return (ObjectNode) Json.parse(json, "test body");
    }

    static ServiceException refused(Runnable create) {
        try {
            create.run();
        } catch (ServiceException e) {
            return e;
        }
        throw new AssertionError("the container was created");
    }

    @Test
    void anApiVersionBefore20181231MakesOnePartitionWithTheSystemKey() {
        ContainerInfo c = engine.createContainer("db", body("{\"id\":\"c\"}"), Throughput.manual(10_000), 0, OLD);
        assertThat(c.partitionKey()).isEqualTo(PartitionKeyDefinition.nonPartitioned());
        assertThat(c.partitions().partitions()).hasSize(1);
        assertThat(c.toJson().get("partitionKey").toString())
                .isEqualTo("{\"paths\":[\"/_partitionKey\"],\"kind\":\"Hash\",\"version\":1,\"systemKey\":true}");
        // the stored definition survives a replace that sends it back
        ObjectNode again = c.toJson().deepCopy();
        assertThat(engine.replaceContainer("db", "c", again).partitionKey().systemKey()).isTrue();
    }

    @Test
    void theCurrentApiVersionAndTheBoundaryVersionRequireAKey() {
        for (ApiVersion v : new ApiVersion[] {ApiVersion.CURRENT, new ApiVersion("2018-12-31")}) {
            ServiceException e = refused(() -> engine.createContainer("db", body("{\"id\":\"c\"}"),
                    Throughput.manual(400), 0, v));
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).startsWith("A Partition key definition is not specified in the request.");
        }
    }

    @Test
    void throughputBeyondOnePartitionNeedsAKey() {
        assertThat(refused(() -> engine.createContainer("db", body("{\"id\":\"c\"}"), Throughput.manual(10_100), 0,
                OLD)).status()).isEqualTo(400);
        assertThat(refused(() -> engine.createContainer("db", body("{\"id\":\"c\"}"), Throughput.autoscale(4000), 0,
                OLD)).status()).isEqualTo(400);
        assertThat(refused(() -> engine.createContainer("shared", body("{\"id\":\"c\"}"), Throughput.NONE, 0, OLD))
                .getMessage()).startsWith("Shared throughput collection should have a partition key");
        // a body with a key is an ordinary container at any version
        assertThat(engine.createContainer("db", body("{\"id\":\"k\",\"partitionKey\":{\"paths\":[\"/pk\"]}}"),
                Throughput.manual(400), 0, OLD).partitionKey().systemKey()).isFalse();
        assertThatThrownBy(() -> engine.readContainer("db", "c")).isInstanceOf(ServiceException.class);
    }
}
