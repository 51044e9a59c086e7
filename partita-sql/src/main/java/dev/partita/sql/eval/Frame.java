package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.EvalContext;
import dev.partita.sql.SqlException;
import dev.partita.sql.functions.FunctionEnv;
import dev.partita.sql.search.SearchPolicy;

import java.time.Clock;
import java.time.Instant;

/**
 * The mutable state of one execution: alias slots (FROM bindings and aggregate results), resolved
 * parameter values, the items of the container, the clock and the container's search policies. One frame per call;
 * never shared between threads.
 */
public final class Frame implements FunctionEnv {
    final JsonNode[] slots;
    final JsonNode[] params;
    final Iterable<? extends JsonNode> items;
    private final Clock clock;
    private final SearchPolicy search;
    /** Where search work is counted, or null. */
    private final EvalContext context;
    private Instant staticNow;

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock) {
        this(slotCount, params, items, clock, SearchPolicy.NONE);
    }

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock,
            SearchPolicy search) {
        this(slotCount, params, items, clock, search, null);
    }

    public Frame(int slotCount, JsonNode[] params, Iterable<? extends JsonNode> items, Clock clock,
            SearchPolicy search, EvalContext context) {
        this.slots = new JsonNode[slotCount];
        this.params = params;
        this.items = items;
        this.clock = clock;
        this.search = search;
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
