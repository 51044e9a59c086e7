package dev.partita.sql;

/**
 * Counts the function calls (built-in and user-defined) an evaluation makes: the caller's measure of the work a query
 * did per item beyond reading it (the engine prices it). One per execution; not thread-safe, like the execution.
 */
public final class CallCounter {
    private long calls;

    /** Records one call. */
    public void called() {
        calls++;
    }

    /** The calls made so far. */
    public long calls() {
        return calls;
    }
}
