package dev.partita.examples.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import dev.partita.junit.PartitaTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Endpoint scopes through the official SDK: exact isolation between endpoints whose ids prefix each other. */
@PartitaTest
class EndpointScopeTest {
    /** The scoping predicate, first in the WHERE clause of every query the store builds. */
    static final Pattern SCOPED = Pattern.compile("SELECT .+ FROM c WHERE "
            + "(c\\.endpointId = @endpointId|ARRAY_CONTAINS\\(@endpointIds, c\\.endpointId\\))"
            + "( AND .+?)?( ORDER BY .+| GROUP BY .+)?");

    private TrackingFixture f;

    @BeforeEach
    void setUp(CosmosClient client) {
        f = new TrackingFixture(client);
        EndpointScope orders = f.store.endpoint("orders");
        EndpointScope ordersEu = f.store.endpoint("orders-eu");
        for (int i = 0; i < 12; i++) {
            orders.upsert(TrackingFixture.row(i, i % 4 == 0 ? FailedMessage.RESOLVED : FailedMessage.FAILED, 1_000 + i));
        }
        for (int i = 0; i < 5; i++) {
            ordersEu.upsert(TrackingFixture.row(100 + i, FailedMessage.FAILED, 2_000 + i));
        }
    }

    @Test
    void anEndpointNeverSeesTheRowsOfAnEndpointItsIdPrefixes() {
        EndpointScope orders = f.store.endpoint("orders");
        List<FailedMessage> all = new ArrayList<>();
        String continuation = null;
        do {
            Page<FailedMessage> page = orders.search(null, 5, continuation);
            all.addAll(page.rows());
            continuation = page.continuation();
        } while (continuation != null);
        assertThat(all).hasSize(12).allMatch(r -> r.endpointId().equals("orders"));
        assertThat(all).extracting(FailedMessage::updatedAtTicks).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(orders.countByStatus()).isEqualTo(Map.of("failed", 9L, "resolved", 3L));
        assertThat(f.store.endpoint("orders-eu").countByStatus()).isEqualTo(Map.of("failed", 5L));
        assertThat(f.store.endpoint("order").countByStatus()).isEmpty();
        assertThat(orders.ids(100, null).rows()).containsExactlyInAnyOrderElementsOf(
                all.stream().map(FailedMessage::id).toList());
    }

    @Test
    void theEndpointIdComesFromTheScopeNotFromTheRow() {
        FailedMessage row = TrackingFixture.row(7, FailedMessage.FAILED, 1);
        assertThat(row.endpointId()).isEqualTo("ignored-by-the-scope");
        assertThat(f.store.endpoint("orders").read(row.id()).orElseThrow().endpointId()).isEqualTo("orders");
        assertThat(f.store.endpoint("ignored-by-the-scope").read(row.id())).isEmpty();
    }

    @Test
    void aSetScopeSearchesAndCountsOnlyItsEndpointsInOneQueryEach() {
        EndpointSetScope both = f.store.endpoints(List.of("orders", "orders-eu"));
        assertThat(both.failedHistogram()).isEqualTo(Map.of("orders", 9L, "orders-eu", 5L));
        Page<FailedMessage> newest = both.failed(3, null);
        assertThat(newest.rows()).extracting(FailedMessage::updatedAtTicks).containsExactly(2_004L, 2_003L, 2_002L);
        EndpointSetScope justOrders = f.store.endpoints(List.of("orders"));
        assertThat(justOrders.failedHistogram()).isEqualTo(Map.of("orders", 9L));
        assertThat(justOrders.failed(100, null).rows()).hasSize(9).allMatch(r -> r.endpointId().equals("orders"));
    }

    @Test
    void everyQueryTheStoreBuildsStartsWithItsScope() {
        EndpointScope orders = f.store.endpoint("orders");
        orders.search(null, 5, null);
        orders.search(FailedMessage.FAILED, 5, null);
        orders.ids(5, null);
        orders.countByStatus();
        EndpointSetScope set = f.store.endpoints(List.of("orders", "billing"));
        set.failed(5, null);
        set.failedHistogram();
        assertThat(f.queries.queries()).hasSize(6).allSatisfy(q -> assertThat(q).matches(SCOPED));
    }
}
