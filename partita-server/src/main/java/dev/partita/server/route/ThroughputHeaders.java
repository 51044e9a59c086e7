package dev.partita.server.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.account.Throughput;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;

/**
 * Throughput asked for at creation (protocol.md §9): {@code x-ms-offer-throughput: 400} for manual,
 * {@code x-ms-cosmos-offer-autopilot-settings: {"maxThroughput":4000,...}} for autoscale; neither means none.
 */
final class ThroughputHeaders {
    private ThroughputHeaders() {
    }

    /** The throughput asked for; the engine validates it against the account's limits. */
    static Throughput parse(Exchange ex) {
        String manual = ex.header(Hdr.OFFER_THROUGHPUT);
        String auto = ex.header(Hdr.OFFER_AUTOPILOT);
        if (manual != null && !manual.isBlank() && auto != null && !auto.isBlank()) {
            throw ServiceException.badRequest("Send either x-ms-offer-throughput or"
                    + " x-ms-cosmos-offer-autopilot-settings, not both.");
        }
        if (manual != null && !manual.isBlank()) {
            try {
                return Throughput.manual(Integer.parseInt(manual.trim()));
            } catch (NumberFormatException e) {
                throw ServiceException.badRequest("x-ms-offer-throughput must be a whole number of RU/s.");
            }
        }
        if (auto != null && !auto.isBlank()) {
            JsonNode settings = Json.parse(auto, "x-ms-cosmos-offer-autopilot-settings header");
            JsonNode max = settings.get("maxThroughput");
            if (max == null || !max.canConvertToInt()) {
                throw ServiceException.badRequest("x-ms-cosmos-offer-autopilot-settings needs a 'maxThroughput'.");
            }
            return Throughput.autoscale(max.intValue());
        }
        return Throughput.NONE;
    }
}
