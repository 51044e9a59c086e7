package dev.partita.sql;

import dev.partita.sql.functions.UserFunctions;
import java.time.Clock;
import java.util.Objects;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read, the instant (on that clock) by which an evaluation must be done — past it, binding more rows fails with
 * {@link SqlException#TIMEOUT} — and the user-defined functions ({@code udf.name(...)}) a query may call. Nothing in
 * this module reads the system clock or runs a user's code itself. Immutable and thread-safe when its functions are.
 */
public final class EvalContext {
    private final Clock clock;
    private final long deadlineMillis;
    private final UserFunctions userFunctions;

    private EvalContext(Clock clock, long deadlineMillis, UserFunctions userFunctions) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deadlineMillis = deadlineMillis;
        this.userFunctions = userFunctions;
    }

    /** A context whose "now" comes from {@code clock}, with no deadline and no user-defined functions. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, Long.MAX_VALUE, null);
    }

    /** This context with evaluations bounded to end by {@code epochMillis} of its clock. */
    public EvalContext withDeadline(long epochMillis) {
        return new EvalContext(clock, epochMillis, userFunctions);
    }

    /** The clock millis past which evaluation stops; {@link Long#MAX_VALUE} for none. */
    public long deadlineMillis() {
        return deadlineMillis;
    }

    /** This context with {@code functions} answering {@code udf.name(...)} calls. */
    public EvalContext withUserFunctions(UserFunctions functions) {
        return new EvalContext(clock, deadlineMillis, Objects.requireNonNull(functions, "functions"));
    }

    /** The clock the date/time functions read. */
    public Clock clock() {
        return clock;
    }

    /** The user-defined functions, or null when there are none. */
    public UserFunctions userFunctions() {
        return userFunctions;
    }
}
