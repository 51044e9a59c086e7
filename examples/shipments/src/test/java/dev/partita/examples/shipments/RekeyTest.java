package dev.partita.examples.shipments;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.cli.PartitaCommand;
import dev.partita.junit.PartitaTest;
import dev.partita.server.PartitaServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Re-keying {@code /tenantId} to {@code /tenantId}+{@code /shipmentId} with {@code partita migrate} (the command line
 * the README shows) while the application keeps writing: a first run copies and catches up under live writes, a
 * second run after the writes stop verifies and writes the cutover marker; the target then holds every shipment, the
 * ones written during the copy included, under the new key.
 */
@PartitaTest
class RekeyTest {

    @Test
    void theMigratorReKeysTheContainerWhileWritesContinue(CosmosClient client, PartitaServer server)
            throws Exception {
        client.createDatabase("rekey");
        CosmosDatabase db = client.getDatabase("rekey");
        CosmosContainer source = Layout.TENANT.create(db, "shipments", 12_000);
        for (LoadModel.Tenant t : LoadModel.scaled().tenants().subList(0, 6)) {
            for (int n = 0; n < 40; n++) {
                ObjectNode s = Shipment.of(t.id(), n);
                source.createItem(s, Layout.TENANT.key(s), new CosmosItemRequestOptions());
            }
        }
        List<String> args = List.of("migrate", "--endpoint", server.endpoint(), "--key", Clients.KEY,
                "--database", "rekey", "--source-container", "shipments", "--target-container", "shipments-v2",
                "--target-key", "/tenantId,/shipmentId", "--target-throughput", "6000", "--verify-by", "/status",
                "--page-size", "50");

        AtomicBoolean stop = new AtomicBoolean();
        int firstRun;
        long written;
        try (ExecutorService writer = Executors.newSingleThreadExecutor()) {
            Future<Long> writes = writer.submit(() -> {
                long n = 0;
                while (!stop.get()) {
                    // new Contoso shipments, and status changes of existing ones
                    ObjectNode s = Shipment.of(LoadModel.CONTOSO, 1_000 + n);
                    source.createItem(s, Layout.TENANT.key(s), new CosmosItemRequestOptions());
                    ObjectNode old = Shipment.of(LoadModel.CONTOSO, n % 40);
                    old.put("status", "Delivered");
                    source.upsertItem(old, Layout.TENANT.key(old), new CosmosItemRequestOptions());
                    n++;
                }
                return n;
            });
            firstRun = migrate(args);
            stop.set(true);
            written = writes.get();
        }
        assertThat(written).as("writes went on during the first run").isPositive();
        assertThat(firstRun).as("0, or 1 when writes were still arriving at verification").isIn(0, 1);

        List<String> cutover = new ArrayList<>(args);
        cutover.add("--cutover");
        assertThat(migrate(cutover)).as("the cutover run, writes stopped").isZero();

        CosmosContainer target = db.getContainer("shipments-v2");
        assertThat(target.read().getProperties().getPartitionKeyDefinition().getPaths())
                .containsExactly("/tenantId", "/shipmentId");
        assertThat(count(target)).isEqualTo(count(source)).isEqualTo(240 + written);
        String late = LoadModel.CONTOSO + "-s" + (1_000 + written - 1);
        JsonNode copied = target.readItem(late, Layout.TENANT_SHIPMENT.key(LoadModel.CONTOSO, late), JsonNode.class)
                .getItem();
        assertThat(copied.get("status").asText()).isEqualTo(Shipment.of(LoadModel.CONTOSO, 1_000 + written - 1)
                .get("status").asText());
        assertThat(db.getContainer("migrations").queryItems("SELECT VALUE COUNT(1) FROM c WHERE ENDSWITH(c.id, "
                + "'.cutover')", new CosmosQueryRequestOptions(), Long.class).iterator().next()).isEqualTo(1L);
    }

    private static int migrate(List<String> args) {
        return new CommandLine(new PartitaCommand()).execute(args.toArray(String[]::new));
    }

    private static long count(CosmosContainer c) {
        return c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Long.class).iterator()
                .next();
    }
}
