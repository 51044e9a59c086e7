package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import dev.partita.junit.PartitaTest;
import dev.partita.server.PartitaServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The record's claims, measured on a server that enforces each physical partition's budget: Contoso is throttled at
 * its partition's ceiling with {@code /tenantId} (doubled throughput or not) and not once its shipments are spread by
 * the hierarchical key; point reads stay one partition and about 1 RU; a tenant-only list fans out. Counts and
 * charges only, no timings.
 */
@PartitaTest(enforceCapacity = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HotTenantTest {
    static final Duration LOAD = Duration.ofSeconds(2);
    CosmosClient noRetries;
    HotTenantExperiment experiment;
    HotTenantExperiment.Variant before;
    HotTenantExperiment.Variant spread;

    @BeforeAll
    void setUp(CosmosClient client, PartitaServer server) {
        noRetries = Clients.noRetries(server);
        experiment = new HotTenantExperiment(client, noRetries, "hot-tenant", LoadModel.scaled(), 600);
        before = experiment.tenantKeyed("by-tenant", LoadModel.REAL_THROUGHPUT);
        spread = experiment.hierarchicalSpread("by-shipment");
    }

    @AfterAll
    void tearDown() {
        noRetries.close();
    }

    @Test
    @Order(1)
    void pointReadsStayOnePartitionAtAbout1RuAndTheTenantListBecomesAPrefixFanOut() {
        for (HotTenantExperiment.Variant v : new HotTenantExperiment.Variant[] {before, spread}) {
            HotTenantExperiment.PointRead p = experiment.pointRead(v, LoadModel.CONTOSO);
            assertThat(p.readCharge()).as(v.label()).isBetween(0.9, 1.5);
            assertThat(p.queryRows()).isEqualTo(1);
        }
        HotTenantExperiment.TenantList flat = experiment.tenantList(before, LoadModel.CONTOSO);
        HotTenantExperiment.TenantList prefix = experiment.tenantList(spread, LoadModel.CONTOSO);
        assertThat(prefix.rows()).as("the same shipments").isEqualTo(flat.rows()).isPositive();
        assertThat(flat.partitionsSpanned()).isEqualTo(1);
        assertThat(prefix.partitionsSpanned()).isEqualTo(spread.contosoPartitions()).isGreaterThan(3);
        assertThat(prefix.charge()).as("a prefix query pays per partition it spans").isGreaterThan(flat.charge());
        String small = LoadModel.scaled().tenants().get(1).id();
        assertThat(experiment.tenantList(spread, small).partitionsSpanned()).isEqualTo(1);
    }

    @Test
    @Order(2)
    void contosoIsThrottledAtItsPartitionWhileTheAccountHasHeadroomAndDoublingDoesNotHelp() {
        assertThat(before.partitions()).isEqualTo(20);
        assertThat(before.throughput()).isEqualTo(1_200);
        assertThat(before.contosoPartitions()).isEqualTo(1);
        HotTenantExperiment.settle();
        NightlyLoad.Result r = experiment.load(before, LOAD);
        assertNoFailuresBut429s(r);
        NightlyLoad.TenantResult contoso = r.tenant(LoadModel.CONTOSO);
        // Contoso asks for 270 RU/s of a partition that has 60: most of its writes are refused...
        assertThat(contoso.throttled()).as("Contoso's 429s: " + r).isGreaterThan(contoso.written());
        // ...while the account serves well below what it provisions
        assertThat(r.servedRus()).isLessThan(before.throughput() * 0.5);

        HotTenantExperiment.Variant doubled = experiment.tenantKeyed("by-tenant-doubled",
                2 * LoadModel.REAL_THROUGHPUT);
        assertThat(doubled.partitions()).as("240,000 RU/s needs 24 partitions of 10,000").isEqualTo(24);
        assertThat(doubled.contosoPartitions()).isEqualTo(1);
        NightlyLoad.Result d = experiment.load(doubled, LOAD);
        assertNoFailuresBut429s(d);
        assertThat(d.tenant(LoadModel.CONTOSO).throttled()).as("Contoso's 429s after doubling: " + d)
                .isGreaterThan(d.tenant(LoadModel.CONTOSO).written() / 2);
    }

    @Test
    @Order(3)
    void theHierarchicalKeySpreadsContosoOnceItsDataIsSplitAndThe429sGo() {
        HotTenantExperiment.Variant fresh = experiment.hierarchicalFresh("by-shipment-fresh");
        assertThat(fresh.partitions()).isEqualTo(20);
        assertThat(fresh.contosoPartitions()).as("first-level key co-located until a split").isEqualTo(1);

        assertThat(spread.partitions()).as("raised from one partition to 120,000 RU/s").isEqualTo(12);
        assertThat(spread.contosoPartitions()).isGreaterThan(3);
        HotTenantExperiment.settle();
        NightlyLoad.Result r = experiment.load(spread, LOAD);
        assertNoFailuresBut429s(r);
        NightlyLoad.TenantResult contoso = r.tenant(LoadModel.CONTOSO);
        assertThat(contoso.written()).isPositive();
        assertThat(contoso.throttled()).as("Contoso's 429s spread over " + spread.contosoPartitions()
                + " partitions: " + r).isLessThan(contoso.sent() / 20);
    }

    /**
     * Every write is either written or refused with 429 (capacity); anything else is a fault of the load. It caught
     * the load sharing one request options object between concurrent writes: 400/1001 on a write or two a run.
     */
    static void assertNoFailuresBut429s(NightlyLoad.Result r) {
        assertThat(r.failures()).as("writes failed otherwise than 429, by status/sub-status").isEmpty();
    }
}
