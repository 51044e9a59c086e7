package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.SqlException;
import dev.partita.sql.functions.FunctionEnv;

import java.time.Clock;
import java.time.Instant;

/**
 * The mutable state of one execution: alias slots (FROM bindings and aggregate results), resolved
 * parameter values, the items of the container and the clock. One frame per call; never shared
 * between threads.
 */
public final class Frame implements FunctionEnv {
    final JsonNode[] slots;
    final JsonNode[] params;
    final Iterable<? extends JsonNode> items;
    private final Clock clock;
    private Instant staticNow;

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock) {
        this.slots = new JsonNode[slotCount];
        this.params = params;
        this.items = items;
        this.clock = clock;
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
