package dev.partita.sql;

import dev.partita.sql.functions.UserFunctions;
import java.time.Clock;
import java.util.Objects;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read, and the user-defined functions ({@code udf.name(...)}) a query may call. Nothing in this module reads the
 * system clock or runs a user's code itself. Immutable and thread-safe when its functions are.
 */
public final class EvalContext {
    private final Clock clock;
    private final UserFunctions userFunctions;

    private EvalContext(Clock clock, UserFunctions userFunctions) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.userFunctions = userFunctions;
    }

    /** A context whose "now" comes from {@code clock}, without user-defined functions. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, null);
    }

    /** This context with {@code functions} answering {@code udf.name(...)} calls. */
    public EvalContext withUserFunctions(UserFunctions functions) {
        return new EvalContext(clock, Objects.requireNonNull(functions, "functions"));
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
