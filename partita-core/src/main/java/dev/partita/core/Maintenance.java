package dev.partita.core;

import dev.partita.core.account.Catalog;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.changefeed.ChangeLogPruner;
import dev.partita.core.item.Items;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * The engine's background upkeep, on one daemon thread at {@link Limits#ttlSweepInterval()}: the TTL sweep, the removal
 * of deleted partition keys' items, change-log pruning, throughput splits that fell due and splits of oversized
 * partitions. Each task can also be run on demand (tests drive them with the injected clock).
 */
final class Maintenance implements AutoCloseable {
    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final Splits splits;
    private final Capacity capacity;
    private final Function<ContainerInfo, Items> items;
    /** When each physical partition last spent its share on removing deleted partitions' items. */
    private final Map<RangeKey, Long> lastRemoval = new ConcurrentHashMap<>();
    private final ChangeLogPruner changeLog = new ChangeLogPruner();
    private ScheduledExecutorService background;

    Maintenance(Store store, Clock clock, Limits limits, Catalog catalog, Splits splits, Capacity capacity,
            Function<ContainerInfo, Items> items) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        this.catalog = catalog;
        this.splits = splits;
        this.capacity = capacity;
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

    /**
     * Removes items of deleted partition keys: each physical partition spends at most
     * {@link Limits#partitionKeyDeletePercent()} of its RU/s for the time since its last removal (at most one run
     * interval), every removal priced as a delete by the cost model and charged to the partition, so user requests
     * have that much less, as with the service's reserved share. Returns how many items were removed.
     */
    int removeDeletedItems() {
        long now = clock.millis();
        long interval = limits.ttlSweepInterval().toMillis();
        int removed = 0;
        for (ContainerInfo c : containers()) {
            Items it = items.apply(c);
            Map<String, double[]> allowances = new HashMap<>();
            for (String epk : it.partitionsBeingDeleted()) {
                String rangeId = c.partitions().route(epk).id();
                double[] left = allowances.computeIfAbsent(rangeId, r -> {
                    Long last = lastRemoval.put(new RangeKey(c.containerId(), r), now);
                    long elapsed = last == null ? interval : Math.min(interval, now - last);
                    return new double[] {limits.partitionKeyDeletePercent() / 100.0
                            * capacity.budget(c, r).rate() * elapsed / 1000.0};
                });
                if (left[0] <= 0) {
                    continue;
                }
                removed += it.removeDeletedItems(epk, work -> {
                    left[0] -= capacity.charge(c, rangeId, capacity.costs().price(work));
                    return left[0] > 0;
                });
            }
        }
        return removed;
    }

    private record RangeKey(int containerId, String rangeId) {
    }

    /** Prunes every container's change log ({@link ChangeLogPruner}); returns how many records were dropped. */
    int pruneChangeLog() {
        long now = clock.millis() / 1000;
        int dropped = 0;
        for (ContainerInfo c : containers()) {
            dropped += changeLog.prune(store, c, limits, now);
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
                removeDeletedItems();
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
