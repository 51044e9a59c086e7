package dev.partita.core;

import dev.partita.core.account.Catalog;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.changefeed.ChangeLogPruner;
import dev.partita.core.item.Items;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * The engine's background upkeep, on one daemon thread at {@link Limits#ttlSweepInterval()}: the TTL sweep, change-log
 * pruning, throughput splits that fell due and splits of oversized partitions. Each task can also be run on demand
 * (tests drive them with the injected clock).
 */
final class Maintenance implements AutoCloseable {
    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final Splits splits;
    private final Function<ContainerInfo, Items> items;
    private ScheduledExecutorService background;

    Maintenance(Store store, Clock clock, Limits limits, Catalog catalog, Splits splits,
            Function<ContainerInfo, Items> items) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        this.catalog = catalog;
        this.splits = splits;
        this.items = items;
    }

    /** Removes expired items (TTL) and returns how many were purged. */
    int sweepExpired() {
        long now = clock.millis() / 1000;
        int purged = 0;
        for (ContainerInfo c : containers()) {
            purged += items.apply(c).purgeExpired(now);
        }
        return purged;
    }

    /** Prunes every container's change log ({@link ChangeLogPruner}); returns how many records were dropped. */
    int pruneChangeLog() {
        long now = clock.millis() / 1000;
        int dropped = 0;
        for (ContainerInfo c : containers()) {
            dropped += ChangeLogPruner.prune(store, c, limits, now);
        }
        return dropped;
    }

    private List<ContainerInfo> containers() {
        List<ContainerInfo> all = new ArrayList<>();
        for (DatabaseInfo db : catalog.databases()) {
            all.addAll(catalog.containers(db.id()));
        }
        return all;
    }

    synchronized void start() {
        if (background != null) {
            return;
        }
        background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partita-maintenance");
            t.setDaemon(true);
            return t;
        });
        long every = limits.ttlSweepInterval().toMillis();
        background.scheduleWithFixedDelay(() -> {
            try {
                sweepExpired();
                pruneChangeLog();
                splits.runDue();
                splits.splitOversized();
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(Maintenance.class).warn("Background maintenance failed: {}", e.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (background != null) {
            background.shutdownNow();
        }
    }
}
