package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Contoso's logical partition growing: shipments with a document-sized payload are added until the service refuses
 * one with 403 / sub-status 1014 (the 20 GB logical-partition limit) or {@code maxWrites} is reached. Under
 * {@code /tenantId} every shipment adds to the one logical partition; under {@code /tenantId}+{@code /shipmentId} each
 * is its own, so the same growth never meets the limit. Reaching 20 GB for real is out of reach; the server runs with
 * scaled storage limits ({@code partita serve --limits-scale 1/100000}: 20 GB becomes about 210 KB).
 */
public final class PartitionGrowth {
    /** The payload each growth shipment carries (documents, notes): about 1 KB in all. */
    static final String NOTES = "x".repeat(700);

    /** How far the tenant grew and how it ended. */
    public record Outcome(long writes, long bytes, int status, int subStatus) {
        public boolean hitLimit() {
            return status == 403 && subStatus == 1014;
        }
    }

    private PartitionGrowth() {
    }

    public static Outcome grow(CosmosContainer container, Layout layout, String tenantId, long firstShipment,
            int maxWrites) {
        long bytes = 0;
        CosmosItemRequestOptions options = new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(false);
        for (int i = 0; i < maxWrites; i++) {
            ObjectNode s = Shipment.of(tenantId, firstShipment + i);
            s.put("notes", NOTES);
            try {
                container.createItem(s, layout.key(s), options);
                bytes += s.toString().length();
            } catch (CosmosException e) {
                if (e.getStatusCode() == 403) {
                    return new Outcome(i, bytes, e.getStatusCode(), e.getSubStatusCode());
                }
                throw e;
            }
        }
        return new Outcome(maxWrites, bytes, 201, 0);
    }
}
