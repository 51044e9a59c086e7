package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.CallCounter;
import dev.partita.sql.SqlException;
import dev.partita.sql.functions.FunctionEnv;
import dev.partita.sql.functions.UserFunctions;

import java.time.Clock;
import java.time.Instant;

/**
 * The mutable state of one execution: alias slots (FROM bindings and aggregate results), resolved
 * parameter values, the items of the container, the clock and the user-defined functions. One frame per call; never shared
 * between threads.
 */
public final class Frame implements FunctionEnv {
    final JsonNode[] slots;
    final JsonNode[] params;
    final Iterable<? extends JsonNode> items;
    private final Clock clock;
    private final long deadlineMillis;
    private final UserFunctions userFunctions;
    private final CallCounter calls;
    private Instant staticNow;
    private int bindsSinceCheck;

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock) {
        this(slotCount, params, items, clock, Long.MAX_VALUE, null, null);
    }

    /**
     * @param deadlineMillis the clock millis past which binding more rows fails ({@link SqlException#TIMEOUT})
     * @param userFunctions  the caller's user-defined functions, or null
     * @param calls          where to count the function calls made, or null
     */
    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock,
            long deadlineMillis, UserFunctions userFunctions, CallCounter calls) {
        this.slots = new JsonNode[slotCount];
        this.params = params;
        this.items = items;
        this.clock = clock;
        this.deadlineMillis = deadlineMillis;
        this.userFunctions = userFunctions;
        this.calls = calls;
    }

    /** Counts one function call (built-in or user-defined) when the caller asked for a count. */
    void called() {
        if (calls != null) {
            calls.called();
        }
    }

    /**
     * Called for every row a FROM or JOIN binds: a cross product of large arrays in one item can run for minutes,
     * so it is bounded by the deadline (read from the clock every 1,024 rows, to keep the check off the profile).
     */
    void bound() {
        if (++bindsSinceCheck < 1024 || deadlineMillis == Long.MAX_VALUE || clock == null) {
            return;
        }
        bindsSinceCheck = 0;
        if (clock.millis() >= deadlineMillis) {
            throw new SqlException(SqlException.TIMEOUT, "The query ran past the time one request may take while"
                    + " joining the arrays of one item; narrow the query or the arrays it joins.");
        }
    }

    /** The caller's user-defined functions; a query that calls one where there are none fails. */
    UserFunctions userFunctions() {
        if (userFunctions == null) {
            throw new SqlException("This query calls a user-defined function; evaluate it with an EvalContext that "
                    + "carries the container's functions.");
        }
        return userFunctions;
    }

    @Override
    public Instant now() {
        if (clock == null) {
            throw new SqlException("This query reads the current time; evaluate it with an EvalContext that "
                    + "carries a Clock.");
        }
        return clock.instant();
    }

    @Override
    public Instant staticNow() {
        if (staticNow == null) {
            staticNow = now();
        }
        return staticNow;
    }
}
