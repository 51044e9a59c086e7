package dev.partita.examples.shipments;

/**
 * A client-side request-unit budget: after each request the caller reports its charge, and the limiter holds the
 * caller back until that charge fits the budget's rate. Paced by charges actually returned, not by estimates, so a
 * write that costs more slows the job down by exactly that much.
 */
public final class RuRateLimiter {
    private final double rusPerSecond;
    private final java.time.Clock clock;
    private long nextFreeNanos;

    public RuRateLimiter(double rusPerSecond) {
        this(rusPerSecond, java.time.Clock.systemUTC());
    }

    public RuRateLimiter(double rusPerSecond, java.time.Clock clock) {
        this.rusPerSecond = rusPerSecond;
        this.clock = clock;
        this.nextFreeNanos = NightlyLoad.nanos(clock);
    }

    /** Accounts for a request's charge and sleeps until the budget has room for the next one. */
    public synchronized void spent(double charge) throws InterruptedException {
        long now = NightlyLoad.nanos(clock);
        nextFreeNanos = Math.max(nextFreeNanos, now) + (long) (charge / rusPerSecond * 1e9);
        long wait = nextFreeNanos - now;
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}
