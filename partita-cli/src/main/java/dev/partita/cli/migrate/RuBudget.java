package dev.partita.cli.migrate;

import java.time.Clock;

/**
 * A client-side request-unit budget: after each request the caller reports its charge, and when the charges so far
 * run ahead of {@code ruPerSecond} times the elapsed time the caller waits until they do not. Pacing by the charges
 * the service actually returned keeps the migration's average at or under the budget whatever the items cost, so live
 * traffic keeps the rest of the container's throughput.
 */
final class RuBudget {
    /** Sleeping, replaceable in tests that must not wait. */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final double ruPerSecond;
    private final Clock clock;
    private final Sleeper sleeper;
    private final long started;
    private double spent;

    /** @param ruPerSecond the budget; 0 or less means unlimited */
    RuBudget(double ruPerSecond, Clock clock, Sleeper sleeper) {
        this.ruPerSecond = ruPerSecond;
        this.clock = clock;
        this.sleeper = sleeper;
        this.started = clock.millis();
    }

    static RuBudget unlimited(Clock clock) {
        return new RuBudget(0, clock, Thread::sleep);
    }

    /** Records a charge and waits, if needed, until the average is back within the budget. */
    synchronized void spend(double requestCharge) {
        spent += requestCharge;
        if (ruPerSecond <= 0) {
            return;
        }
        long due = started + (long) Math.ceil(spent / ruPerSecond * 1000);
        long wait = due - clock.millis();
        if (wait > 0) {
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pacing", e);
            }
        }
    }

    synchronized double spent() {
        return spent;
    }

    double ruPerSecond() {
        return ruPerSecond;
    }
}
