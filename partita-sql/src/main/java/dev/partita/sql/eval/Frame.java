package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
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
    private final UserFunctions userFunctions;
    private Instant staticNow;

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock) {
        this(slotCount, params, items, clock, null);
    }

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock,
            UserFunctions userFunctions) {
        this.slots = new JsonNode[slotCount];
        this.params = params;
        this.items = items;
        this.clock = clock;
        this.userFunctions = userFunctions;
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
