package dev.partita.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.TickingClock;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The first ORDER BY on a path indexed through a wildcard builds the set of the items without a scalar there
 * ({@link NonScalarItems}) by a scan of the container: the scan is spread over requests, each stopping at its
 * deadline with a 408, and a query repeated until it answers gets every item in order, writes made between the
 * requests included. The clock moves one millisecond per read, so a 20 ms budget covers a few items of the scan.
 */
class BoundedNonScalarBuildTest {
    static final int ITEMS = 300;
    static final String QUERY = "SELECT VALUE c.id FROM c ORDER BY c.n";

    @Test
    void theBuildRunsOverRequestsWithinTheirBudgetAndMissesNoWrite() {
        TickingClock clock = new TickingClock(QueryExecutorTest.CLOCK.instant(), false);
        try (Engine bounded = Engine.open(new MemoryStore(), clock, Limits.DEFAULTS.toBuilder()
                .maxRequestExecution(Duration.ofMillis(20)).build());
                Engine timely = Engine.open(new MemoryStore(), QueryExecutorTest.CLOCK, Limits.DEFAULTS)) {
            load(bounded);
            load(timely);
            clock.start();
            int timeouts = 0;
            List<String> rows = null;
            while (rows == null) {
                try {
                    rows = drain(bounded);
                } catch (ServiceException e) {
                    assertThat(e.status()).isEqualTo(408);
                    assertThat(++timeouts).isLessThan(1_000);
                    if (timeouts == 3) {
                        // a write into the part the build has read already, and one after it
                        for (Engine engine : List.of(bounded, timely)) {
                            create(engine, "{\"id\":\"late0\",\"pk\":\"p0\"}");
                            create(engine, "{\"id\":\"i1\",\"pk\":\"p1\",\"n\":[1]}");
                        }
                    }
                }
            }
            assertThat(timeouts).as("the build took several requests").isGreaterThan(3);
            assertThat(rows).hasSize(ITEMS + 1).containsExactlyElementsOf(drain(timely));
        }
    }

    private static void load(Engine engine) {
        engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
        engine.createContainer("db", (ObjectNode) Json.parse("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}",
                "t"), Throughput.NONE, 1);
        for (int i = 0; i < ITEMS; i++) {
            String n = i % 10 == 0 ? "" : i % 10 == 1 ? ",\"n\":[" + i + "]" : ",\"n\":" + i;
            create(engine, "{\"id\":\"i" + i + "\",\"pk\":\"p" + i % 7 + "\"" + n + "}");
        }
    }

    private static void create(Engine engine, String doc) {
        engine.container("db", "c").upsert(doc.getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
    }

    private static List<String> drain(Engine engine) {
        ContainerInfo c = engine.readContainer("db", "c");
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            QueryPage page = engine.container(c).query(QUERY, Map.of(), RequestOptions.scoped(Scope.range("0"))
                    .withContinuation(token));
            page.rows().stream().map(JsonNode::asText).forEach(out::add);
            token = page.continuation();
        } while (token != null);
        return out;
    }
}
