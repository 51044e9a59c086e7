package dev.partita.sql;

import java.time.Clock;
import java.util.Objects;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read. Nothing in this module reads the system clock. Immutable and thread-safe.
 */
public final class EvalContext {
    private final Clock clock;

    private EvalContext(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A context whose "now" comes from {@code clock}. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock);
    }

    /** The clock the date/time functions read. */
    public Clock clock() {
        return clock;
    }
}
