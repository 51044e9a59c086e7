package dev.partita.sql.functions;

import dev.partita.sql.SqlException;
import dev.partita.sql.search.SearchPolicy;

import java.time.Instant;

/**
 * What a function may ask of the running query: the current instant, per call or fixed per query, and the container's
 * search policies.
 */
public interface FunctionEnv {
    /** "Now" for per-evaluation functions (GetCurrentDateTime, Now, Ago...). */
    Instant now();

    /** "Now" fixed once for the whole query execution (the *Static functions). */
    Instant staticNow();

    /** The vector and full-text policies of the container the query runs over. */
    default SearchPolicy search() {
        return SearchPolicy.NONE;
    }

    /**
     * Records search work: vector elements compared, or text terms examined. The engine prices queries by it; the
     * service publishes no per-element figure.
     */
    default void searchWork(long units) {
    }

    /**
     * Reports the steps of a function whose one call can be long (the spatial functions compare every pair of their
     * arguments' points or edges): past the query's deadline it throws {@link SqlException#TIMEOUT},
     * which the time budget, checked between rows, could not do inside the call.
     */
    default void work(long steps) {
    }
}
