package dev.partita.clients.springdata;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand, so audit dates are exact. */
final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
        this.now = start;
    }

    void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a UTC clock");
    }

    @Override
    public Instant instant() {
        return now;
    }
}
