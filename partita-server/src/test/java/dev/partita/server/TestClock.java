package dev.partita.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock for capacity tests: stands still and moves only when the test advances it, so one-second budget windows
 * are exact; or, once {@link #live()} is called, runs with real time from where it stood (for the SDK's own retry
 * waits, which are real). Starts at the real time so request signatures stay within the allowed skew.
 */
final class TestClock extends Clock {
    private volatile Instant base = Instant.now();
    private volatile long liveSinceNanos = -1;

    /** Moves the standing clock forward. */
    void advance(Duration d) {
        base = base.plus(d);
    }

    /** From now on, follows real time. */
    void live() {
        base = instant();
        liveSinceNanos = System.nanoTime();
    }

    /** Stands still again, where it is. */
    void stop() {
        base = instant();
        liveSinceNanos = -1;
    }

    @Override
    public Instant instant() {
        long since = liveSinceNanos;
        return since < 0 ? base : base.plusNanos(System.nanoTime() - since);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
