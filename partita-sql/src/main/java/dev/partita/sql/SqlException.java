package dev.partita.sql;

import java.io.Serial;

/**
 * A query that cannot be parsed, fails validation, or cannot be evaluated. The message names the
 * problem (and, for syntax errors, the position); it never contains parameter values or document
 * values. {@link #code()} is the service's error code where one is known (e.g. {@code SC1001} for a
 * syntax error, {@code SC2005} for an unknown function), otherwise null. {@link #start()} / {@link #end()}
 * are 0-based character offsets into the query text (end exclusive) when known, otherwise -1.
 */
public class SqlException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int start;
    private final int end;

    /** The code of an evaluation stopped at its context's deadline (the engine answers 408). */
    public static final String TIMEOUT = "RequestTimeout";
    /** A call of constants too long to evaluate at compile time; the compiler leaves it to the query's evaluation. */
    public static final String NOT_FOLDED = "NotFolded";

    public SqlException(String message) {
        this(null, message, -1, -1);
    }

    public SqlException(String code, String message) {
        this(code, message, -1, -1);
    }

    public SqlException(String code, String message, int start, int end) {
        super(message);
        this.code = code;
        this.start = start;
        this.end = end;
    }

    /** The service error code (e.g. {@code SC1001}), or null. */
    public String code() {
        return code;
    }

    /** 0-based start offset of the offending text, or -1. */
    public int start() {
        return start;
    }

    /** 0-based end offset (exclusive) of the offending text, or -1. */
    public int end() {
        return end;
    }
}
