package dev.partita.cli.advise;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the replay moves forward itself, so a minute of workload takes as long as its requests, not a minute. */
final class VirtualClock extends Clock {
    private final AtomicLong nanos;

    VirtualClock(Instant start) {
        this.nanos = new AtomicLong(start.getEpochSecond() * 1_000_000_000L + start.getNano());
    }

    void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        long n = nanos.get();
        return Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
    }
}
