package dev.partita.core;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that, once started, moves one millisecond every time it is read: a request's deadline then passes after a
 * known number of the engine's clock reads, wherever they are, without a test that sleeps.
 */
public final class TickingClock extends Clock {
    private final AtomicLong now;
    private volatile boolean ticking;

    public TickingClock(Instant start, boolean ticking) {
        this.now = new AtomicLong(start.toEpochMilli());
        this.ticking = ticking;
    }

    /** From now on every read moves the clock. */
    public void start() {
        ticking = true;
    }

    @Override
    public long millis() {
        return ticking ? now.getAndIncrement() : now.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
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
