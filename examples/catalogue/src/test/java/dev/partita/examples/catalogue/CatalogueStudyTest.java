package dev.partita.examples.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.junit.PartitaTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The catalogue study through the official SDK against an in-process Partita, on a small catalogue. */
@PartitaTest
class CatalogueStudyTest {

    @Test
    void theGeneratorHasTheRecordsDistributions() {
        List<ObjectNode> vehicles = CatalogueGenerator.vehicles(20_000, 3);
        assertThat(share(vehicles, "make")).isBetween(0.08, 0.10);
        assertThat(distinct(vehicles, "make")).isEqualTo(15);
        for (String field : List.of("body_style", "province", "title_status")) {
            assertThat(share(vehicles, field)).as(field).isBetween(0.4, 0.6);
        }
        assertThat(CatalogueGenerator.vehicles(500, 3)).isEqualTo(CatalogueGenerator.vehicles(500, 3));
        // expansion varies numbers only: every vehicle keeps its seed's make, model, style, status and province
        ObjectNode first = vehicles.get(0);
        ObjectNode again = vehicles.get(200);
        for (String field : List.of("make", "model", "body_style", "province", "title_status")) {
            assertThat(again.get(field)).isEqualTo(first.get(field));
        }
    }

    @Test
    void aVehicleIsTheRecordsDocument() throws Exception {
        for (ObjectNode v : CatalogueGenerator.vehicles(400, 3)) {
            int bytes = CatalogueGenerator.JSON.writeValueAsBytes(v).length;
            // 82 MB over 100,000 documents, with ~200 bytes of system properties added by the store
            assertThat(bytes + 200).as("stored size").isBetween(750, 900);
            assertThat(scalars(v)).as("scalar values (index terms under \"index everything\")").isEqualTo(35);
        }
    }

    @Test
    void theDefaultPolicyCostsMorePerWriteAndTheQueriesAnswer(CosmosClient client) {
        String name = "catalogue-" + UUID.randomUUID().toString().substring(0, 8);
        client.createDatabase(name);
        CosmosDatabase db = client.getDatabase(name);
        CatalogueStudy study = new CatalogueStudy(db);
        List<ObjectNode> vehicles = CatalogueGenerator.vehicles(1_000, 3);
        CosmosContainer tuned = study.create("tuned", Policies.tuned(), 1_000);
        CosmosContainer everything = study.create("default", Policies.everything(), 1_000);
        CatalogueStudy.Seeding t = study.seed(tuned, vehicles);
        CatalogueStudy.Seeding d = study.seed(everything, vehicles);
        assertThat(t.documents()).isEqualTo(1_000);
        assertThat(d.documents()).isEqualTo(1_000);
        // the record: 884,479 RU for 100,000 vehicles under the tuned policy, the default 1.8 times that per write
        assertThat(t.totalCharge() / 1_000).as("tuned write charge").isCloseTo(8.84, within(0.884));
        assertThat(d.totalCharge() / t.totalCharge()).as("default / tuned write charge").isCloseTo(1.8, within(0.18));

        List<CatalogueStudy.Measurement> q = study.sevenQueries(tuned, vehicles.get(17));
        assertThat(q).hasSize(7).allSatisfy(m -> assertThat(m.requestCharge()).isPositive());
        assertThat(q.get(0).requestCharge()).as("point read").isLessThan(q.get(1).requestCharge());
        assertThat(q.get(1).rows()).isEqualTo(1);
        assertThat(q.get(2).rows()).isBetween(1, 100);
    }

    @Test
    void theReportPrintsBothTables(CosmosClient client) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CatalogueReport.run(client, new PrintStream(out, true, StandardCharsets.UTF_8), 600);
        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(report).contains("total RU, tuned policy").contains("default policy / tuned policy")
                .contains("read by id without the make").contains("price range and grade");
    }

    private static int scalars(JsonNode node) {
        if (!node.isContainerNode()) {
            return 1;
        }
        int n = 0;
        for (JsonNode child : node) {
            n += scalars(child);
        }
        return n;
    }

    private static double share(List<ObjectNode> vehicles, String field) {
        Map<String, Integer> counts = new HashMap<>();
        vehicles.forEach(v -> counts.merge(v.get(field).asText(), 1, Integer::sum));
        return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0) / (double) vehicles.size();
    }

    private static long distinct(List<ObjectNode> vehicles, String field) {
        return vehicles.stream().map(v -> v.get(field).asText()).distinct().count();
    }
}
