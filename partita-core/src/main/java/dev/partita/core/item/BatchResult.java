package dev.partita.core.item;

import dev.partita.core.capacity.Work;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-operation results of a batch or bulk request, in request order. A failed atomic batch has every entry but
 * the failing one at 424 and nothing written.
 *
 * @param lsn     the container's LSN after the request (for the session token)
 * @param rangeId the physical partition that served it
 */
public record BatchResult(List<OpResult> results, long lsn, String rangeId) {

    /** One operation's outcome; {@code item} is null when there is no body to return. */
    public record OpResult(int status, int subStatus, String etag, StoredItem item, long retryAfterMillis, Work work) {
        static OpResult of(ItemResult r) {
            return new OpResult(r.status(), 0, r.etag(), r.item(), 0, r.work());
        }

        static OpResult error(ServiceException e) {
            return new OpResult(e.status(), e.subStatus(), null, null, e.retryAfterMillis(), Work.NONE);
        }

        public boolean isSuccess() {
            return status < 400;
        }
    }

    static BatchResult failed(int count, int failedIndex, ServiceException cause) {
        List<OpResult> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            results.add(i == failedIndex ? OpResult.error(cause) : new OpResult(424, 0, null, null, 0, Work.NONE));
        }
        return new BatchResult(results, -1, null);
    }

    /** True when every operation succeeded (HTTP 200); otherwise the gateway answers 207. */
    public boolean allSucceeded() {
        return results.stream().allMatch(OpResult::isSuccess);
    }

    /**
     * The response body the SDK parses: {@code statusCode}, {@code subStatusCode}, {@code eTag} (capital T),
     * {@code resourceBody} and {@code retryAfterMilliseconds} per operation.
     *
     * @param minimal leave write results' bodies out ({@code Prefer: return=minimal}); reads keep theirs
     */
    public ArrayNode toJson(boolean minimal, List<Boolean> isRead, double chargePerOperation) {
        ArrayNode out = Json.NODES.arrayNode();
        for (int i = 0; i < results.size(); i++) {
            OpResult r = results.get(i);
            ObjectNode o = out.addObject();
            o.put("statusCode", r.status());
            if (r.subStatus() != 0) {
                o.put("subStatusCode", r.subStatus());
            }
            o.put("requestCharge", chargePerOperation);
            if (r.etag() != null) {
                o.put("eTag", r.etag());
            }
            if (r.item() != null && (!minimal || isRead.get(i))) {
                o.set("resourceBody", Json.parse(r.item().json(), "stored item"));
            }
            if (r.retryAfterMillis() > 0) {
                o.put("retryAfterMilliseconds", r.retryAfterMillis());
            }
        }
        return out;
    }
}
