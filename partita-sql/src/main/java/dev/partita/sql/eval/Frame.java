package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.CallCounter;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlException;
import dev.partita.sql.functions.FunctionEnv;
import dev.partita.sql.functions.UserFunctions;
import dev.partita.sql.search.SearchPolicy;
import java.time.Clock;
import java.time.Instant;

/**
 * The mutable state of one execution: alias slots (FROM bindings and aggregate results), resolved parameter values,
 * the items of the container, and what the caller's {@link EvalContext} carries (the clock, the deadline, the
 * user-defined functions, the function-call count, the search policies and the search work). One frame per call;
 * never shared between threads.
 */
public final class Frame implements FunctionEnv {
    final JsonNode[] slots;
    final JsonNode[] params;
    final Iterable<? extends JsonNode> items;
    private final Clock clock;
    private final long deadlineMillis;
    private final UserFunctions userFunctions;
    private final CallCounter calls;
    private final SearchPolicy search;
    /** Where search work is counted, or null. */
    private final EvalContext context;
    private Instant staticNow;
    private int bindsSinceCheck;
    private long workSinceCheck;

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock) {
        this(slotCount, params, items, clock, null);
    }

    /** @param context the caller's context, or null for none (then {@code clock} alone, which may be null too) */
    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock,
            EvalContext context) {
        this.slots = new JsonNode[slotCount];
        this.params = params;
        this.items = items;
        this.clock = context != null ? context.clock() : clock;
        this.deadlineMillis = context != null ? context.deadlineMillis() : Long.MAX_VALUE;
        this.userFunctions = context != null ? context.userFunctions() : null;
        this.calls = context != null ? context.callCounter() : null;
        this.search = context != null ? context.search() : SearchPolicy.NONE;
        this.context = context;
    }

    @Override
    public SearchPolicy search() {
        return search;
    }

    @Override
    public void searchWork(long units) {
        if (context != null) {
            context.addSearchWork(units);
        }
    }

    /** Counts one function call (built-in or user-defined) when the caller asked for a count. */
    void called() {
        if (calls != null) {
            calls.called();
        }
    }

    /**
     * Called for every row a FROM or JOIN binds: a cross product of large arrays in one item can run for minutes,
     * so it is bounded by the deadline (read from the clock every 1,024 rows of one item, to keep the check off the
     * profile). Rows are counted per item ({@link #nextItem}): between items the engine's read checks the deadline
     * itself and can end the page there with a continuation, which a check here, landing on an item after the
     * deadline passed, would turn into a 408.
     */
    /** The container's next item is about to be bound: its rows are counted afresh. */
    void nextItem() {
        bindsSinceCheck = 0;
    }

    void bound() {
        if (++bindsSinceCheck < 1024) {
            return;
        }
        bindsSinceCheck = 0;
        failPastDeadline("while joining the arrays of one item; narrow the query or the arrays it joins.");
    }

    /** {@link FunctionEnv#work}: the deadline read from the clock every ~million steps of one call. */
    @Override
    public void work(long steps) {
        workSinceCheck += steps;
        if (workSinceCheck < (1 << 20)) {
            return;
        }
        workSinceCheck = 0;
        failPastDeadline("inside one call of a function over large arguments; narrow the query or the values it"
                + " passes.");
    }

    private void failPastDeadline(String where) {
        if (deadlineMillis != Long.MAX_VALUE && clock != null && clock.millis() >= deadlineMillis) {
            throw new SqlException(SqlException.TIMEOUT, "The query ran past the time one request may take " + where);
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
