package dev.partita.core.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.json.Json;
import java.time.Duration;
import java.util.Locale;

/**
 * One injected fault: what it answers, where (a container {@code db/coll}, optionally one physical partition; null
 * for every container), and how often ({@code rate} of matching requests, at most {@code count} times; -1 for no
 * bound).
 *
 * @param kind       what the request answers
 * @param container  {@code db/coll}, or null for any container
 * @param rangeId    a physical partition (partition key range id), or null for any
 * @param rate       the share of matching requests it hits, 0 to 1
 * @param count      how many requests it hits at most; -1 for no bound
 * @param retryAfter the retry-after of a 429; the delay of {@link Kind#DELAY}
 */
public record FaultRule(Kind kind, String container, String rangeId, double rate, int count, Duration retryAfter) {

    /** What an injected fault answers. */
    public enum Kind {
        /** 429, sub-status 3200, with {@code x-ms-retry-after-ms}: the partition's budget is spent. */
        THROTTLE,
        /** 410, sub-status 1002: the partition is gone (split); the SDK refreshes its ranges and retries. */
        GONE,
        /** 503: the service is unavailable. */
        UNAVAILABLE,
        /** 408: the request timed out. */
        TIMEOUT,
        /** No error: the request runs after {@code retryAfter}. */
        DELAY
    }

    public FaultRule {
        if (rate < 0 || rate > 1) {
            throw ServiceException.badRequest("A fault's 'rate' is a share of requests between 0 and 1.");
        }
        if (retryAfter == null || retryAfter.isNegative()) {
            retryAfter = Duration.ZERO;
        }
    }

    /** The error the fault answers (null for a delay). */
    ServiceException error() {
        return switch (kind) {
            case THROTTLE -> new ServiceException(429, SubStatus.USER_REQUEST_RATE_TOO_LARGE, "Request rate is large"
                    + " (injected fault).", Math.max(1, retryAfter.toMillis()));
            case GONE -> new ServiceException(410, SubStatus.PARTITION_KEY_RANGE_GONE, "The partition key range is"
                    + " gone (injected fault); refresh the partition key ranges and retry.");
            case UNAVAILABLE -> new ServiceException(503, 0, "The service is unavailable (injected fault).");
            case TIMEOUT -> new ServiceException(408, 0, "The request timed out (injected fault).");
            case DELAY -> null;
        };
    }

    /**
     * A rule from its JSON: {@code {"kind":"throttle|gone|unavailable|timeout|delay", "container":"db/coll",
     * "range":"0", "rate":1.0, "count":3, "retryAfterMs":100}} (everything but {@code kind} optional).
     */
    public static FaultRule fromJson(JsonNode o) {
        Kind kind;
        try {
            kind = Kind.valueOf(o.path("kind").asText("").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ServiceException.badRequest("A fault needs a 'kind': throttle, gone, unavailable, timeout or delay.");
        }
        return new FaultRule(kind, text(o, "container"), text(o, "range"), o.path("rate").asDouble(1.0),
                o.path("count").asInt(-1), Duration.ofMillis(o.path("retryAfterMs").asLong(0)));
    }

    /**
     * A rule from a line, as tests write it: the kind, then {@code name=value} settings with the JSON form's names,
     * e.g. {@code "throttle container=db/orders count=3 retryAfterMs=100"}.
     */
    public static FaultRule parse(String spec) {
        String[] words = spec.trim().split("\\s+");
        ObjectNode o = Json.object().put("kind", words[0]);
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw ServiceException.badRequest("A fault setting is name=value, e.g. count=3.");
            }
            o.put(words[i].substring(0, eq), words[i].substring(eq + 1));
        }
        return fromJson(o);
    }

    public ObjectNode toJson() {
        ObjectNode o = Json.object().put("kind", kind.name().toLowerCase(Locale.ROOT));
        if (container != null) {
            o.put("container", container);
        }
        if (rangeId != null) {
            o.put("range", rangeId);
        }
        return o.put("rate", rate).put("count", count).put("retryAfterMs", retryAfter.toMillis());
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText();
    }
}
