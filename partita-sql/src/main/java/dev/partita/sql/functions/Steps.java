package dev.partita.sql.functions;

import dev.partita.sql.SqlException;

/**
 * The steps of one call that may be long, reported to the query ({@link FunctionEnv#work}, which ends it at its
 * deadline). While the compiler folds a call of constants there is no query yet ({@code env} is null): a call past
 * {@link #FOLDED_STEPS} gives up with {@link SqlException#NOT_FOLDED}, and the compiler leaves it to be evaluated with
 * the query, under its deadline.
 */
final class Steps {
    /** The most steps a call may take while it is folded: a few milliseconds. */
    static final long FOLDED_STEPS = 1L << 20;

    private final FunctionEnv env;
    private long whileFolding;

    Steps(FunctionEnv env) {
        this.env = env;
    }

    void spend(long steps) {
        if (env != null) {
            env.work(steps);
            return;
        }
        whileFolding += steps;
        if (whileFolding > FOLDED_STEPS) {
            throw new SqlException(SqlException.NOT_FOLDED, "This call is too long to evaluate while the query"
                    + " compiles.");
        }
    }
}
