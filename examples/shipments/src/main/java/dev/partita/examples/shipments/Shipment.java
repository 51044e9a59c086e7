package dev.partita.examples.shipments;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A shipment document as the application writes it: {@code id} is the shipment id. */
public final class Shipment {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] STATUSES = {"Booked", "InTransit", "Delayed", "Delivered"};
    static final String[] PORTS = {"Rotterdam", "Singapore", "Shanghai", "Los Angeles", "Hamburg", "Antwerp"};
    static final Instant EPOCH = Instant.parse("2026-11-01T00:00:00Z");

    private Shipment() {
    }

    /** Shipment number {@code n} of a tenant; the status cycles so a quarter of shipments are delayed. */
    public static ObjectNode of(String tenantId, long n) {
        String shipmentId = tenantId + "-s" + n;
        ObjectNode s = JSON.createObjectNode();
        s.put("id", shipmentId);
        s.put("tenantId", tenantId);
        s.put("shipmentId", shipmentId);
        s.put("status", STATUSES[(int) (n % STATUSES.length)]);
        s.put("createdAt", EPOCH.plusSeconds(n * 37).toString());
        s.put("origin", PORTS[(int) (n % PORTS.length)]);
        s.put("destination", PORTS[(int) ((n + 3) % PORTS.length)]);
        s.put("containers", 1 + n % 4);
        s.put("weightKg", 1_000 + (n * 7919) % 24_000);
        return s;
    }
}
