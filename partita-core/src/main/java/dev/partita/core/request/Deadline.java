package dev.partita.core.request;

import java.time.Clock;
import java.time.Duration;

/**
 * The instant, on the engine's clock, by which one request must be done ({@code Limits#maxRequestExecution}): a query
 * or change-feed page that reaches it returns what it has with a continuation (for a COUNT or a GROUP BY of COUNTs,
 * the partial rows of the items read so far, which the SDKs add up; for a SUM, AVG, MIN or MAX without GROUP BY, the
 * partials of nothing and the running state, until the range's last page); work that cannot stop part-way fails with 408.
 */
public record Deadline(Clock clock, long atMillis) {
    /** No deadline: for callers outside a request (background work, tests of the raw executor). */
    public static final Deadline NONE = new Deadline(Clock.systemUTC(), Long.MAX_VALUE);

    /** The deadline {@code budget} from now. */
    public static Deadline after(Clock clock, Duration budget) {
        long now = clock.millis();
        long at = budget.toMillis() > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + budget.toMillis();
        return new Deadline(clock, at);
    }

    public boolean passed() {
        return atMillis != Long.MAX_VALUE && clock.millis() >= atMillis;
    }
}
