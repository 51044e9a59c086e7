package dev.partita.sql;

import dev.partita.sql.functions.UserFunctions;
import dev.partita.sql.search.SearchPolicy;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * What evaluation needs from the caller besides items and parameters: the clock that the date/time functions
 * ({@code GetCurrentDateTime()}, {@code GetCurrentTicks()}, {@code Now()}, ...) read; the instant (on that clock) by
 * which an evaluation must be done — past it, binding more rows fails with {@link SqlException#TIMEOUT}; the
 * user-defined functions ({@code udf.name(...)}) a query may call; where to count the function calls evaluations
 * make; and the container's vector and full-text policies, with the search work the search functions report. Nothing
 * in this module reads the system clock or runs a user's code itself. Immutable but for its counts.
 */
public final class EvalContext {
    private final Clock clock;
    private final long deadlineMillis;
    private final UserFunctions userFunctions;
    private final CallCounter calls;
    private final SearchPolicy search;
    private final LongAdder searchWork;

    private EvalContext(Clock clock, long deadlineMillis, UserFunctions userFunctions, CallCounter calls,
            SearchPolicy search, LongAdder searchWork) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deadlineMillis = deadlineMillis;
        this.userFunctions = userFunctions;
        this.calls = calls;
        this.search = Objects.requireNonNull(search, "search");
        this.searchWork = searchWork;
    }

    /** A context whose "now" comes from {@code clock}: no deadline, no functions, no search policies. */
    public static EvalContext of(Clock clock) {
        return new EvalContext(clock, Long.MAX_VALUE, null, null, SearchPolicy.NONE, new LongAdder());
    }

    /** This context with evaluations bounded to end by {@code epochMillis} of its clock. */
    public EvalContext withDeadline(long epochMillis) {
        return new EvalContext(clock, epochMillis, userFunctions, calls, search, searchWork);
    }

    /** The clock millis past which evaluation stops; {@link Long#MAX_VALUE} for none. */
    public long deadlineMillis() {
        return deadlineMillis;
    }

    /** This context with {@code functions} answering {@code udf.name(...)} calls. */
    public EvalContext withUserFunctions(UserFunctions functions) {
        return new EvalContext(clock, deadlineMillis, Objects.requireNonNull(functions, "functions"), calls, search,
                searchWork);
    }

    /** The user-defined functions, or null when there are none. */
    public UserFunctions userFunctions() {
        return userFunctions;
    }

    /** This context counting every function call its evaluations make into {@code counter}. */
    public EvalContext withCallCounter(CallCounter counter) {
        return new EvalContext(clock, deadlineMillis, userFunctions, counter, search, searchWork);
    }

    /** Where function calls are counted, or null. */
    public CallCounter callCounter() {
        return calls;
    }

    /**
     * This context for a container with these search policies, with its own count of search work (one context per
     * query page, so that the page's price can include it).
     */
    public EvalContext withSearch(SearchPolicy policy) {
        return new EvalContext(clock, deadlineMillis, userFunctions, calls, policy, new LongAdder());
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
