package dev.partita.sql;

import dev.partita.sql.search.SearchPolicy;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the
 * date/time functions ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...)
 * read, and the container's vector and full-text policies that the search functions read. Nothing in this module
 * reads the system clock. Immutable and thread-safe.
 */
public final class EvalContext {
    private final Clock clock;
    private final SearchPolicy search;
    private final LongAdder searchWork = new LongAdder();

    private EvalContext(Clock clock, SearchPolicy search) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.search = Objects.requireNonNull(search, "search");
    }

    /** A context whose "now" comes from {@code clock}, for a container without search policies. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, SearchPolicy.NONE);
    }

    /**
     * This context for a container with these search policies, with its own count of search work (one context per
     * query page, so that the page's price can include it).
     */
    public EvalContext withSearch(SearchPolicy policy) {
        return new EvalContext(clock, policy);
    }

    /** The container's vector and full-text policies. */
    public SearchPolicy search() {
        return search;
    }

    /** The vector elements compared and text terms examined by the queries run with this context. */
    public long searchWork() {
        return searchWork.sum();
    }

    /** Adds to {@link #searchWork()}; called by the search functions as they run. */
    public void addSearchWork(long units) {
        searchWork.add(units);
    }

    /** The clock the date/time functions read. */
    public Clock clock() {
        return clock;
    }
}
