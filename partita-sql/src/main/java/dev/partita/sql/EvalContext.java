package dev.partita.sql;

import dev.partita.sql.functions.UserFunctions;
import java.time.Clock;
import java.util.Objects;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read, the instant (on that clock) by which an evaluation must be done — past it, binding more rows fails with
 * {@link SqlException#TIMEOUT} — the user-defined functions ({@code udf.name(...)}) a query may call, and where to
 * count the function calls evaluations make. Nothing in
 * this module reads the system clock or runs a user's code itself. Immutable and thread-safe when its functions are.
 */
public final class EvalContext {
    private final Clock clock;
    private final long deadlineMillis;
    private final UserFunctions userFunctions;
    private final CallCounter calls;

    private EvalContext(Clock clock, long deadlineMillis, UserFunctions userFunctions, CallCounter calls) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deadlineMillis = deadlineMillis;
        this.userFunctions = userFunctions;
        this.calls = calls;
    }

    /** A context whose "now" comes from {@code clock}, with no deadline and no user-defined functions. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, Long.MAX_VALUE, null, null);
    }

    /** This context with evaluations bounded to end by {@code epochMillis} of its clock. */
    public EvalContext withDeadline(long epochMillis) {
        return new EvalContext(clock, epochMillis, userFunctions, calls);
    }

    /** The clock millis past which evaluation stops; {@link Long#MAX_VALUE} for none. */
    public long deadlineMillis() {
        return deadlineMillis;
    }

    /** This context with {@code functions} answering {@code udf.name(...)} calls. */
    public EvalContext withUserFunctions(UserFunctions functions) {
        return new EvalContext(clock, deadlineMillis, Objects.requireNonNull(functions, "functions"), calls);
    }

    /** The clock the date/time functions read. */
    public Clock clock() {
        return clock;
    }

    /** The user-defined functions, or null when there are none. */
    public UserFunctions userFunctions() {
        return userFunctions;
    }

    /** This context counting the function calls its evaluations make into {@code counter}. */
    public EvalContext withCallCounter(CallCounter counter) {
        return new EvalContext(clock, deadlineMillis, userFunctions, Objects.requireNonNull(counter, "counter"));
    }

    /** Where function calls are counted, or null when they are not. */
    public CallCounter callCounter() {
        return calls;
    }
}
