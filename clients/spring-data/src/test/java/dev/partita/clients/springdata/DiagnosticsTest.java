package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.spring.data.cosmos.core.ResponseDiagnostics;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the application's {@link RequestCharges} sees of each response, with query and index metrics asked for. */
class DiagnosticsTest extends PartitaSpringTest {
    @Autowired
    OrderRepository orders;

    @Autowired
    RequestCharges charges;

    @BeforeEach
    void seed() {
        orders.deleteAll();
        orders.saveAll(List.of(new Order("d1", "c1", "NEW", 100, 1, "Oslo"),
                new Order("d2", "c2", "PAID", 200, 2, "Bergen")));
        charges.clear();
    }

    @Test
    void queriesReportTheirChargeAndActivity() {
        assertThat(orders.findByStatusIn(List.of("NEW", "PAID"))).hasSize(2);
        List<ResponseDiagnostics> seen = charges.seen();
        assertThat(seen).isNotEmpty();
        assertThat(seen).allSatisfy(d -> assertThat(d.getCosmosDiagnostics()).isNotNull());
        assertThat(seen).filteredOn(d -> d.getCosmosResponseStatistics() != null).isNotEmpty()
                .allSatisfy(d -> {
                    assertThat(d.getCosmosResponseStatistics().getRequestCharge()).isPositive();
                    assertThat(d.getCosmosResponseStatistics().getActivityId()).isNotBlank();
                });
    }

    @Test
    void queryMetricsComeBackWhenAskedFor() {
        assertThat(orders.findByCustomerId("c1")).hasSize(1);
        String diagnostics = charges.seen().stream().map(d -> String.valueOf(d.getCosmosDiagnostics()))
                .reduce("", String::concat);
        assertThat(diagnostics).contains("\"queryMetricsMap\":").doesNotContain("\"queryMetricsMap\":{}");
    }
}
