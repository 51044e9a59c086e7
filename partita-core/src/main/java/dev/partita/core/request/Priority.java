package dev.partita.core.request;

import java.util.Locale;

/**
 * Priority-based execution (capacity.md §2.9): with {@code x-ms-cosmos-priority-level: Low}, a request is throttled
 * first once its partition nears its budget, so high-priority traffic keeps going. High is the default.
 */
public enum Priority {
    HIGH, LOW;

    /** The header value ({@code Low}/{@code High}, any case); absent or unknown values mean High. */
    public static Priority fromHeader(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("low") ? LOW : HIGH;
    }
}
