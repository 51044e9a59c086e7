package dev.partita.examples.tracking;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One unresolved message-processing failure: a row of {@code unresolvedevents}, keyed {@code [endpointId, id]} with
 * {@code id = eventId_sessionId}.
 *
 * @param updatedAtTicks .NET ticks (100 ns since 0001-01-01) of the last change, as the platform records time
 * @param ttl            seconds until the row expires, or null for the container's default (never)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FailedMessage(
        @JsonProperty("id") String id,
        @JsonProperty("endpointId") String endpointId,
        @JsonProperty("eventId") String eventId,
        @JsonProperty("sessionId") String sessionId,
        @JsonProperty("status") String status,
        @JsonProperty("failure") Failure failure,
        @JsonProperty("updatedAtTicks") long updatedAtTicks,
        @JsonProperty("ttl") Integer ttl) {

    public static final String FAILED = "failed";
    public static final String RETRYING = "retrying";
    public static final String RESOLVED = "resolved";

    /** What went wrong, as the platform reports it. */
    public record Failure(@JsonProperty("exceptionType") String exceptionType,
            @JsonProperty("message") String message, @JsonProperty("attempts") int attempts) {
    }

    public static String idOf(String eventId, String sessionId) {
        return eventId + "_" + sessionId;
    }

    /** The row for an event of an endpoint; the endpoint id is written from the argument, never from the caller's row. */
    public static FailedMessage of(String endpointId, String eventId, String sessionId, String status, Failure failure,
            long updatedAtTicks, Integer ttl) {
        return new FailedMessage(idOf(eventId, sessionId), endpointId, eventId, sessionId, status, failure,
                updatedAtTicks, ttl);
    }

    FailedMessage forEndpoint(String endpoint) {
        return new FailedMessage(id, endpoint, eventId, sessionId, status, failure, updatedAtTicks, ttl);
    }
}
