package dev.partita.examples.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.junit.PartitaTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The record's throttled seed, scaled down: with throughput enforced, seeding faster than the container's RU/s meets
 * 429s that the SDK's bulk retries after the server's retry-after, so every document lands, no faster than the
 * request-unit arithmetic allows (burst capacity is off here).
 */
@PartitaTest(enforceCapacity = true)
class ThrottledSeedTest {

    @Test
    void aSeedAboveTheThroughputIsThrottledAndRetriedToCompletion(CosmosClient client) {
        client.createDatabase("throttled");
        CatalogueStudy study = new CatalogueStudy(client.getDatabase("throttled"));
        CosmosContainer container = study.create("catalogue-default", Policies.everything(), 400);
        List<ObjectNode> vehicles = CatalogueGenerator.vehicles(250, 5);
        CatalogueStudy.Seeding seed = study.seed(container, vehicles);
        assertThat(seed.documents()).isEqualTo(250);
        assertThat(seed.failed()).isZero();
        double arithmetic = seed.totalCharge() / 400;
        assertThat(arithmetic).as("the seed asks for several seconds of the container's RU/s").isGreaterThan(4);
        // the first second's budget is available at once; after that the seed can go no faster than 400 RU/s, which
        // only holds if the server throttled and the SDK waited out its retry-afters (the bulk API's per-item
        // diagnostics do not count those retries, so the time is the evidence)
        assertThat(seed.seconds()).isGreaterThan(arithmetic - 1.5);
    }
}
