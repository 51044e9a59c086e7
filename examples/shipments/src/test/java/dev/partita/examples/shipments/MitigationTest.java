package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import dev.partita.junit.PartitaTest;
import dev.partita.server.PartitaServer;
import org.junit.jupiter.api.Test;

/**
 * Contoso's batch on its hot partition, four ways, with a small tenant on the same partition: counted 429s, not
 * timings. Every way writes the whole batch; only the rate-limited job and the low-priority one leave the neighbour
 * alone.
 */
@PartitaTest(enforceCapacity = true)
class MitigationTest {
    /** About 5 s of the hot partition's budget (60 RU/s): long enough to starve whoever shares it. */
    static final int LONG_BATCH = 36;
    /** About 3 s at the rate-limited job's 30 RU/s. */
    static final int SHORT_BATCH = 12;

    @Test
    void aRateLimitedBatchThrottlesPredictablyInsteadOfStarvingItsNeighbour(CosmosClient client,
            PartitaServer server) throws Exception {
        try (CosmosClient noRetries = Clients.noRetries(server)) {
            HotTenantExperiment x = new HotTenantExperiment(client, noRetries, "mitigations", LoadModel.scaled(), 300);
            HotTenantExperiment.Variant before = x.tenantKeyed("shipments", LoadModel.REAL_THROUGHPUT);
            String neighbour = Mitigations.neighbourOf(before, LoadModel.CONTOSO);
            Mitigations m = new Mitigations(before.container(), before.noRetries(), neighbour, 20, x.writeCharge(),
                    before.throughput() / (double) before.partitions());
            // the unpaced ways get a batch of several seconds of the partition's budget, the paced one a shorter one:
            // the neighbour's share of refused writes is what compares
            Mitigations.Outcome naive = m.run(Mitigations.Mode.NAIVE, LONG_BATCH);
            Mitigations.Outcome limited = m.run(Mitigations.Mode.RATE_LIMITED, SHORT_BATCH);
            Mitigations.Outcome low = m.run(Mitigations.Mode.LOW_PRIORITY, LONG_BATCH);
            Mitigations.Outcome bulk = m.run(Mitigations.Mode.BULK, SHORT_BATCH);
            String all = naive + "\n" + limited + "\n" + low + "\n" + bulk;
            for (Mitigations.Outcome o : new Mitigations.Outcome[] {naive, bulk, limited, low}) {
                assertThat(o.written()).as(o.mode() + " writes the whole batch").isEqualTo(o.shipments());
            }
            assertThat(naive.batchThrottled()).as("the naive client's 429s: " + all).isGreaterThan(LONG_BATCH);
            assertThat(naive.neighbourRefused()).as("the naive batch starves the neighbour: " + all)
                    .isGreaterThan(0.5);
            assertThat(limited.batchThrottled()).as("the rate-limited job: " + all)
                    .isLessThan(naive.batchThrottled() / 4);
            assertThat(limited.neighbourRefused()).as("the neighbour beside the rate-limited job: " + all)
                    .isLessThan(naive.neighbourRefused() / 2);
            assertThat(low.neighbourRefused()).as("the neighbour beside the low-priority batch: " + all)
                    .isLessThan(naive.neighbourRefused());
        }
    }
}
