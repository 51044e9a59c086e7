package dev.partita.examples.tracking;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Keeps the tracking API closed ({@code 503}) until the migration marker covers every legacy container and no legacy
 * container has been written past its mark. The answer is kept for a short while so the guard costs a few queries a
 * minute, not a few per request.
 */
public final class LayoutGuard {
    private final LegacyLayout layout;
    private final Clock clock;
    private final Duration cacheFor;
    private volatile boolean open;
    private volatile String reason = "not checked yet";
    private volatile long checkedAt = Long.MIN_VALUE;

    public LayoutGuard(LegacyLayout layout, Clock clock, Duration cacheFor) {
        this.layout = layout;
        this.clock = clock;
        this.cacheFor = cacheFor;
    }

    /** Null when the new layout may serve; otherwise why not. */
    public synchronized String closedBecause() {
        long now = clock.millis();
        if (checkedAt == Long.MIN_VALUE || now - checkedAt >= cacheFor.toMillis()) {
            check();
            checkedAt = now;
        }
        return open ? null : reason;
    }

    private void check() {
        List<LegacyLayout.Legacy> legacy = layout.listing();
        for (LegacyLayout.Legacy l : legacy) {
            if (l.state() != LegacyLayout.State.MIGRATED_SAFE_TO_DELETE) {
                open = false;
                reason = "legacy container " + l.container() + " is "
                        + (l.state() == LegacyLayout.State.NOT_MIGRATED ? "not migrated" : "written since migration");
                return;
            }
        }
        open = true;
        reason = null;
    }
}
