package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scaled load keeps the record's proportions. */
class LoadModelTest {

    @Test
    void contosoIsFortyFivePercentAndTheOthersAskFiveToFortyRuPerSecond() {
        LoadModel m = LoadModel.scaled();
        assertThat(m.throughput()).isEqualTo(1_200);
        assertThat(m.scaledRus(240_000)).isEqualTo(2_400);
        List<LoadModel.Tenant> tenants = m.tenants();
        double total = tenants.stream().mapToDouble(LoadModel.Tenant::rus).sum();
        assertThat(total).isCloseTo(m.load(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(tenants.get(0).id()).isEqualTo(LoadModel.CONTOSO);
        assertThat(tenants.get(0).rus() / total).isCloseTo(0.45, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(tenants.subList(1, tenants.size())).allSatisfy(t -> assertThat(t.rus()).isBetween(5.0, 40.0));
        assertThat(tenants.size()).isGreaterThan(8);
        assertThat(LoadModel.scaled().tenants()).isEqualTo(tenants);
    }
}
