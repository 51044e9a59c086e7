package dev.partita.core;

import dev.partita.core.account.Catalog;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.PartitionStats;
import dev.partita.core.item.ContainerState;
import dev.partita.core.item.ContainerStates;
import dev.partita.core.item.PartitionSizes;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.partition.RangeBoundaries;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Partition splits (capacity.md §2.6): a throughput increase beyond partitions × {@link Limits#maxPhysicalPartitionRus()}
 * splits until there are enough partitions (at once, or {@link Limits#throughputSplitDelay()} later); a partition
 * over {@link Limits#maxPhysicalPartitionBytes()} splits in the background at its median item. A split changes only
 * metadata: the data is already ordered by EPK.
 */
final class Splits {
    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final ContainerStates states;
    private final PartitionStats stats;
    /** Containers (by id) whose throughput increase still owes splits, with when they fall due (epoch millis). */
    private final Map<Integer, Long> pending = new ConcurrentHashMap<>();
    private volatile long nextDue = Long.MAX_VALUE;

    Splits(Store store, Clock clock, Limits limits, Catalog catalog, ContainerStates states, PartitionStats stats) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
        this.catalog = catalog;
        this.states = states;
        this.stats = stats;
    }

    /** After a throughput change: splits now, or schedules the splits, when the new throughput needs partitions. */
    ContainerInfo throughputChanged(ContainerInfo c) {
        Throughput t = c.throughput();
        if (limits.partitionsForThroughput(Math.max(t.manualRus(), t.autoscaleMaxRus()))
                <= c.partitions().partitions().size()) {
            return c;
        }
        if (limits.throughputSplitDelay().isZero()) {
            return splitForThroughput(c);
        }
        long due = clock.millis() + limits.throughputSplitDelay().toMillis();
        pending.put(c.containerId(), due);
        nextDue = Math.min(nextDue, due);
        return c;
    }

    boolean pending(ContainerInfo c) {
        return pending.containsKey(c.containerId());
    }

    /** Whether a throughput split has fallen due: the next {@link #runDue} would run it. */
    boolean due() {
        return clock.millis() >= nextDue;
    }

    /** Runs the throughput splits that have fallen due (each request and the background tasks call this). */
    void runDue() {
        long now = clock.millis();
        if (now < nextDue) {
            return;
        }
        synchronized (pending) {
            long next = Long.MAX_VALUE;
            for (Map.Entry<Integer, Long> e : List.copyOf(pending.entrySet())) {
                if (e.getValue() > now) {
                    next = Math.min(next, e.getValue());
                    continue;
                }
                pending.remove(e.getKey());
                ContainerInfo c = catalog.containerById(e.getKey());
                if (c != null) {
                    splitForThroughput(c);
                }
            }
            nextDue = next;
        }
    }

    /** Splits the oldest-generation partitions, one child pair at a time, until the throughput fits. */
    private ContainerInfo splitForThroughput(ContainerInfo c) {
        Throughput t = c.throughput();
        int needed = limits.partitionsForThroughput(Math.max(t.manualRus(), t.autoscaleMaxRus()));
        while (c.partitions().partitions().size() < needed) {
            PhysicalPartition oldest = c.partitions().partitions().stream()
                    .min(Comparator.comparingInt(p -> p.parents().size())).orElseThrow();
            c = split(c, oldest.id());
        }
        return c;
    }

    /**
     * Splits every physical partition that holds more than the partition limit in two at its median item, as the
     * service does in the background. A partition that is one logical partition cannot be split further. Returns how
     * many splits were made.
     */
    int splitOversized() {
        int splits = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo listed : catalog.containers(db.id())) {
                ContainerInfo c = listed;
                for (PhysicalPartition p : listed.partitions().partitions()) {
                    PartitionSizes.Total stored = PartitionSizes.total(store, c.containerId(), p.minInclusive(),
                            p.maxExclusive());
                    if (stored.bytes() > limits.maxPhysicalPartitionBytes() && stored.logicalPartitions() > 1) {
                        c = split(c, p.id());
                        splits++;
                    }
                }
            }
        }
        return splits;
    }

    /**
     * Splits one physical partition in two at the median EPK of its items (the middle of its key range when it has
     * too few distinct keys), with every partition's writer held.
     */
    ContainerInfo split(ContainerInfo container, String rangeId) {
        ContainerState state = states.of(container);
        state.allWriters().lock();
        try {
            ContainerInfo c = catalog.container(container.databaseId(), container.id());
            PhysicalPartition range = c.partitions().byId(rangeId);
            String point = medianEpk(c, range);
            if (point == null) {
                point = RangeBoundaries.midpoint(c.partitionKey(), range.minInclusive(), range.maxExclusive());
            }
            ContainerInfo after = catalog.split(c, rangeId, point);
            List<String> children = after.partitions().partitions().stream()
                    .filter(p -> !p.parents().isEmpty() && p.parents().get(p.parents().size() - 1).equals(rangeId))
                    .map(PhysicalPartition::id).toList();
            stats.split(c.containerId(), new PartitionStats.Split(rangeId, range.minInclusive(), range.maxExclusive(),
                    children, clock.millis()));
            return after;
        } finally {
            state.allWriters().unlock();
        }
    }

    /** The EPK of the middle item, if it lies strictly inside the range; else null. */
    private String medianEpk(ContainerInfo c, PhysicalPartition range) {
        byte[][] bounds = StoreKeys.itemRange(c.containerId(), range.minInclusive(), range.maxExclusive());
        List<String> epks = new ArrayList<>();
        try (Cursor cur = store.scan(bounds[0], bounds[1])) {
            while (cur.next()) {
                epks.add(StoreKeys.itemEpk(cur.key()));
            }
        }
        if (epks.isEmpty()) {
            return null;
        }
        String median = epks.get(epks.size() / 2);
        if (median.compareTo(range.minInclusive()) <= 0) {
            // the lower half is one logical partition: split just after it
            median = epks.stream().filter(e -> e.compareTo(range.minInclusive()) > 0).findFirst().orElse(null);
        }
        return median;
    }
}
