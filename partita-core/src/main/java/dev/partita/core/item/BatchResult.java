package dev.partita.core.item;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.partita.core.capacity.Work;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.request.SessionToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-operation results of a batch or bulk request, in request order. A failed atomic batch has every entry but
 * the failing one at 424 and nothing written.
 *
 * @param lsn           the container's LSN after the request, for the session token (a failed batch's: the LSN it
 *                      read at), or -1 when unknown
 * @param rangeId       the physical partition that served it
 * @param requestCharge the request's charge: the sum of its operations' (0 until the engine prices it)
 */
public record BatchResult(List<OpResult> results, long lsn, String rangeId, double requestCharge) {

    public BatchResult(List<OpResult> results, long lsn, String rangeId) {
        this(results, lsn, rangeId, 0);
    }

    /**
     * One operation's outcome; {@code item} is null when there is no body to return.
     *
     * @param read          a read operation (its result keeps its body under {@code Prefer: return=minimal})
     * @param minimalReturn the operation's own {@code minimalReturnPreference}: a write's body is left out even when
     *                      the request asks for bodies (the Java SDK sets it per operation, and asks for bodies when
     *                      any operation of the request needs one)
     * @param requestCharge what the operation was charged (0 if it never ran)
     * @param message       why the operation failed, as the same request on its own would say; null on success
     */
    public record OpResult(int status, int subStatus, String etag, StoredItem item, long retryAfterMillis, Work work,
            boolean read, boolean minimalReturn, double requestCharge, String message) {
        static OpResult of(BatchOperation op, ItemResult r) {
            return new OpResult(r.status(), 0, r.etag(), r.item(), 0, r.work(), isRead(op), op.minimalReturn(), 0,
                    null);
        }

        static OpResult error(BatchOperation op, ServiceException e) {
            return new OpResult(e.status(), e.subStatus(), null, null, e.retryAfterMillis(), Work.NONE, isRead(op),
                    op.minimalReturn(), 0, e.getMessage());
        }

        private static boolean isRead(BatchOperation op) {
            return op.type() == BatchOperation.Type.READ;
        }

        /** The size of the body this result adds to the response (its item, unless a write's is left out). */
        long responseBodyBytes() {
            return item != null && (read || !minimalReturn) ? item.jsonLength() : 0;
        }

        public boolean isSuccess() {
            return status < 400;
        }

        public OpResult withCharge(double ru) {
            return new OpResult(status, subStatus, etag, item, retryAfterMillis, work, read, minimalReturn, ru,
                    message);
        }
    }

    /**
     * A transactional batch that failed at {@code failedIndex}: nothing committed, so the session token names the LSN
     * the batch read at ({@code lsn} on {@code rangeId}), which the SDKs record as they do for a failed point read.
     */
    static BatchResult failed(List<BatchOperation> ops, int failedIndex, ServiceException cause, long lsn,
            String rangeId) {
        List<OpResult> results = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            results.add(i == failedIndex ? OpResult.error(ops.get(i), cause) : notRun(ops.get(i)));
        }
        return new BatchResult(results, lsn, rangeId);
    }

    /**
     * A transactional batch whose results would exceed the largest response ({@code maxResponseBytes}) from the
     * operation at {@code firstUnfit} on: nothing committed; the operations that fitted answer 424, the rest 413 (the
     * SDKs' batchServerResponseTooLarge tests: the first 424, the last 413, the batch 413).
     */
    static BatchResult responseTooLarge(List<BatchOperation> ops, int firstUnfit, int maxResponseBytes, long lsn,
            String rangeId) {
        ServiceException tooLarge = new ServiceException(413, 0, "The results of this batch exceed the largest"
                + " response, " + maxResponseBytes + " bytes; read fewer or smaller items per batch.");
        List<OpResult> results = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            results.add(i < firstUnfit ? notRun(ops.get(i)) : OpResult.error(ops.get(i), tooLarge));
        }
        return new BatchResult(results, lsn, rangeId);
    }

    /** 424 (failed dependency): an operation not run because one before it failed. */
    static OpResult notRun(BatchOperation op) {
        return new OpResult(424, 0, null, null, 0, Work.NONE, OpResult.isRead(op), op.minimalReturn(), 0, null);
    }

    /** The same results, charged: each operation's charge and their total. */
    public BatchResult withCharges(List<OpResult> charged, double total) {
        return new BatchResult(List.copyOf(charged), lsn, rangeId, total);
    }

    /**
     * True when every operation succeeded with a 2xx (the gateway answers 200); otherwise 207, a 304 read included
     * (the .NET SDK's BatchSinglePartitionKeyTests: MultiStatus for a batch with a NotModified read).
     */
    public boolean allSucceeded() {
        return results.stream().allMatch(r -> r.status() >= 200 && r.status() < 300);
    }

    /** The session token, or null when nothing committed. */
    public String sessionToken() {
        return lsn >= 0 && rangeId != null ? SessionToken.of(rangeId, lsn) : null;
    }

    /**
     * The response body the SDK parses: {@code statusCode}, {@code subStatusCode}, {@code requestCharge},
     * {@code eTag} (capital T), {@code resourceBody}, {@code retryAfterMilliseconds} and, for a failure,
     * {@code message} (what the JS SDK reports as the operation's error) per operation. Written straight from the
     * results, each {@code resourceBody} as the item's stored JSON (what a point read answers), without a tree.
     *
     * @param minimal leave write results' bodies out ({@code Prefer: return=minimal}), as each write operation's
     *                {@code minimalReturnPreference} does for its own; reads keep theirs
     */
    public byte[] toJson(boolean minimal) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96 * results.size());
        try (JsonGenerator out = Json.MAPPER.createGenerator(bytes)) {
            out.writeStartArray();
            for (OpResult r : results) {
                out.writeStartObject();
                out.writeNumberField("statusCode", r.status());
                if (r.subStatus() != 0) {
                    out.writeNumberField("subStatusCode", r.subStatus());
                }
                out.writeNumberField("requestCharge", r.requestCharge());
                if (r.etag() != null) {
                    out.writeStringField("eTag", r.etag());
                }
                if (r.item() != null && (r.read() || !(minimal || r.minimalReturn()))) {
                    out.writeFieldName("resourceBody");
                    out.writeRawValue(r.item().jsonString());
                }
                if (r.retryAfterMillis() > 0) {
                    out.writeNumberField("retryAfterMilliseconds", r.retryAfterMillis());
                }
                if (r.message() != null) {
                    out.writeStringField("message", r.message());
                }
                out.writeEndObject();
            }
            out.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }
}
