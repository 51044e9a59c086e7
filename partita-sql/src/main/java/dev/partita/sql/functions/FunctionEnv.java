package dev.partita.sql.functions;

import java.time.Instant;

/** What a function may ask of the running query: the current instant, per call or fixed per query. */
public interface FunctionEnv {
    /** "Now" for per-evaluation functions (GetCurrentDateTime, Now, Ago...). */
    Instant now();

    /** "Now" fixed once for the whole query execution (the *Static functions). */
    Instant staticNow();
}
