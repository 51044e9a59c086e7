package dev.partita.sql;

import java.time.Clock;
import java.util.Objects;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read, and the instant (on that clock) by which an evaluation must be done: past it, binding more rows
 * fails with {@link SqlException#TIMEOUT}. Nothing in this module reads the system clock. Immutable and
 * thread-safe.
 */
public final class EvalContext {
    private final Clock clock;
    private final long deadlineMillis;

    private EvalContext(Clock clock, long deadlineMillis) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deadlineMillis = deadlineMillis;
    }

    /** A context whose "now" comes from {@code clock}, with no deadline. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, Long.MAX_VALUE);
    }

    /** This context with evaluations bounded to end by {@code epochMillis} of its clock. */
    public EvalContext withDeadline(long epochMillis) {
        return new EvalContext(clock, epochMillis);
    }

    /** The clock millis past which evaluation stops; {@link Long#MAX_VALUE} for none. */
    public long deadlineMillis() {
        return deadlineMillis;
    }

    /** The clock the date/time functions read. */
    public Clock clock() {
        return clock;
    }
}
