package dev.partita.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.PartitionMeter;
import dev.partita.core.capacity.PartitionStats;
import dev.partita.core.item.StoredItem;
import dev.partita.core.json.Json;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.stats.ContainerStatistics;
import dev.partita.core.stats.LogicalPartitionUsage;
import dev.partita.core.stats.PartitionStatistics;
import dev.partita.core.stats.SplitRecord;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Assembles a container's {@link ContainerStatistics}: the capacity meters of its partitions (and of those that split
 * within the window), their budgets, and what the store holds in each (the logical partitions' sizes and the items,
 * counted by a key scan). Off the request path: it scans the container's size records and item keys.
 */
final class StatisticsReader {
    private final Store store;
    private final Clock clock;
    private final Capacity capacity;

    StatisticsReader(Store store, Clock clock, Capacity capacity) {
        this.store = store;
        this.clock = clock;
        this.capacity = capacity;
    }

    ContainerStatistics read(ContainerInfo c, int seconds, int top) {
        int n = Math.max(1, Math.min(seconds, PartitionMeter.SECONDS));
        long now = clock.millis();
        PartitionStats stats = capacity.stats();
        List<PartitionStatistics> parts = new ArrayList<>();
        List<LogicalPartitionUsage> byRu = new ArrayList<>();
        PriorityQueue<LogicalPartitionUsage> bySize = new PriorityQueue<>(
                Comparator.comparingLong(LogicalPartitionUsage::bytes));
        for (PhysicalPartition p : c.partitions().partitions()) {
            PartitionMeter m = stats.meter(c.containerId(), p.id());
            long[] storage = storage(c, p, top, bySize);
            parts.add(new PartitionStatistics(p.id(), p.minInclusive(), p.maxExclusive(), p.parents(), true,
                    capacity.budget(c, p.id()).rate(), m.ruPerSecond(now, n), m.budgetPerSecond(now, n),
                    m.throttledPerSecond(now, n),
                    m.totalRu(), m.totalThrottled(), storage[0], itemCount(c, p), storage[1]));
            for (PartitionMeter.LogicalUsage u : m.topKeys(now, top)) {
                byRu.add(new LogicalPartitionUsage(p.id(), u.epk(), u.key() == null ? null : u.key().toJson(),
                        u.ru(), size(c, u.epk())));
            }
        }
        List<SplitRecord> splits = new ArrayList<>();
        for (PartitionStats.Split s : stats.splits(c.containerId())) {
            splits.add(new SplitRecord(s.parent(), s.minInclusive(), s.maxExclusive(), s.children(), s.atMillis()));
            PartitionMeter m = stats.existing(c.containerId(), s.parent());
            if (m != null && s.atMillis() > now - n * 1000L) {
                double[] budgets = m.budgetPerSecond(now, n);
                parts.add(new PartitionStatistics(s.parent(), s.minInclusive(), s.maxExclusive(), List.of(), false,
                        lastNonZero(budgets), m.ruPerSecond(now, n), budgets, m.throttledPerSecond(now, n),
                        m.totalRu(), m.totalThrottled(), 0, 0, 0));
            }
        }
        byRu.sort(Comparator.comparingDouble(LogicalPartitionUsage::ru).reversed());
        List<LogicalPartitionUsage> largest = new ArrayList<>();
        for (LogicalPartitionUsage u : bySize) {
            largest.add(new LogicalPartitionUsage(u.rangeId(), u.epk(), keyOf(c, u.epk()), 0, u.bytes()));
        }
        largest.sort(Comparator.comparingLong(LogicalPartitionUsage::bytes).reversed());
        return new ContainerStatistics(c.databaseId(), c.id(), now, n, parts,
                splits, byRu.size() > top ? byRu.subList(0, top) : byRu, largest);
    }

    private static double lastNonZero(double[] values) {
        for (int i = values.length - 1; i >= 0; i--) {
            if (values[i] > 0) {
                return values[i];
            }
        }
        return 0;
    }

    /** Bytes and logical partitions of one physical partition; keeps the {@code top} largest in {@code largest}. */
    private long[] storage(ContainerInfo c, PhysicalPartition p, int top, PriorityQueue<LogicalPartitionUsage> largest) {
        long total = 0;
        long count = 0;
        try (Cursor cur = store.scan(StoreKeys.partitionSize(c.containerId(), p.minInclusive()),
                StoreKeys.partitionSize(c.containerId(), p.maxExclusive()))) {
            while (cur.next()) {
                long bytes = Bytes.getLong(cur.value(), 0);
                total += bytes;
                count++;
                if (top > 0 && (largest.size() < top || largest.peek().bytes() < bytes)) {
                    largest.add(new LogicalPartitionUsage(p.id(), StoreKeys.partitionSizeEpk(cur.key()), null,
                            0, bytes));
                    if (largest.size() > top) {
                        largest.poll();
                    }
                }
            }
        }
        return new long[] {total, count};
    }

    private long itemCount(ContainerInfo c, PhysicalPartition p) {
        byte[][] range = StoreKeys.itemRange(c.containerId(), p.minInclusive(), p.maxExclusive());
        long count = 0;
        try (Cursor cur = store.scan(range[0], range[1])) {
            while (cur.next()) {
                count++;
            }
        }
        return count;
    }

    private long size(ContainerInfo c, String epk) {
        return Bytes.longValue(store.get(StoreKeys.partitionSize(c.containerId(), epk)));
    }

    /** The partition key of a logical partition, read from its first item (null when it holds none). */
    private String keyOf(ContainerInfo c, String epk) {
        byte[][] range = StoreKeys.logicalPartition(c.containerId(), epk);
        try (Cursor cur = store.scan(range[0], range[1])) {
            if (!cur.next()) {
                return null;
            }
            ObjectNode doc = Json.parseObject(StoredItem.wrap(cur.value()).json(), "stored item");
            return PartitionKeyValue.extract(c.partitionKey(), doc).toJson();
        }
    }
}
