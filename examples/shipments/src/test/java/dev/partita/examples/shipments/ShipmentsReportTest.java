package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import dev.partita.junit.PartitaTest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The report's cheap sections on a small scale (the load tables are the experiments {@link HotTenantTest} and
 * {@link MitigationTest} assert on; the full report runs by the README's command).
 */
@PartitaTest
class ShipmentsReportTest {

    @Test
    void theReportPrintsTheModelTheDashboardTheGrowthAndTheMigration(CosmosClient client) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ShipmentsReport.Sizes sizes = new ShipmentsReport.Sizes(Duration.ofSeconds(1), 100, 5, 20);
        ShipmentsReport.printModel(out, LoadModel.scaled(), sizes);
        client.createDatabase("report");
        ShipmentsReport.printDashboard(out, client.getDatabase("report"));
        ShipmentsReport.printGrowth(out, client.getDatabase("report"), sizes);
        ShipmentsReport.printRekey(out, "report");
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertThat(report).contains("container 1,200 RU/s (real 120,000)").contains("Contoso 270 RU/s (45%)")
                .contains("view from latest-version feed 40 (phantoms: 2); view from all-versions-and-deletes 38")
                .contains("/tenantId                 20 writes").contains("no limit met")
                .contains("--target-key /tenantId,/shipmentId");
    }
}
