package dev.partita.server.metrics;

import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.error.ServiceException;
import dev.partita.core.stats.ContainerStatistics;
import dev.partita.core.stats.PartitionStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-partition and per-container series, refreshed from {@link Engine#statistics} before each scrape: request
 * charge and 429s since start (counters), storage bytes, items and RU/s budget (gauges) of every current physical
 * partition, and the splits of every container. Series of partitions that split or containers that were deleted are
 * removed. Refreshes run one at a time.
 */
final class PartitionSeries {
    private final Engine engine;
    private final MeterRegistry registry;
    private final Map<Tags, Values> partitions = new HashMap<>();
    private final Map<Tags, Values> containers = new HashMap<>();

    /** The numbers of one series as of the last refresh; the registered meters read them. */
    private static final class Values {
        final List<Meter> meters = new ArrayList<>();
        volatile double ru;
        volatile double throttled;
        volatile double bytes;
        volatile double items;
        volatile double budget;
        volatile double splits;
    }

    PartitionSeries(Engine engine, MeterRegistry registry) {
        this.engine = engine;
        this.registry = registry;
    }

    synchronized void refresh() {
        Map<Tags, Values> seenPartitions = new HashMap<>();
        Map<Tags, Values> seenContainers = new HashMap<>();
        for (DatabaseInfo db : engine.listDatabases()) {
            for (ContainerInfo c : engine.listContainers(db.id())) {
                ContainerStatistics s;
                try {
                    s = engine.statistics(c, 1, 0);
                } catch (ServiceException gone) {
                    continue;
                }
                Tags container = Tags.of("account", MeteredDispatcher.ACCOUNT, "database", db.id(), "container",
                        c.id());
                Values cv = containers.computeIfAbsent(container, this::containerMeters);
                cv.splits = s.splits().size();
                seenContainers.put(container, cv);
                for (PartitionStatistics p : s.partitions()) {
                    if (!p.live()) {
                        continue;
                    }
                    Tags partition = container.and("partition", p.id());
                    Values v = partitions.computeIfAbsent(partition, this::partitionMeters);
                    v.ru = p.totalRu();
                    v.throttled = p.totalThrottled();
                    v.bytes = p.storageBytes();
                    v.items = p.itemCount();
                    v.budget = p.budgetRusPerSecond();
                    seenPartitions.put(partition, v);
                }
            }
        }
        retire(partitions, seenPartitions);
        retire(containers, seenContainers);
    }

    private Values partitionMeters(Tags tags) {
        Values v = new Values();
        v.meters.add(FunctionCounter.builder("partita.partition.request.charge", v, x -> x.ru).tags(tags)
                .description("Request units charged on the physical partition")
                .register(registry));
        v.meters.add(FunctionCounter.builder("partita.partition.throttled.requests", v, x -> x.throttled).tags(tags)
                .description("Requests the physical partition refused with 429").register(registry));
        v.meters.add(Gauge.builder("partita.partition.storage", v, x -> x.bytes).tags(tags).baseUnit("bytes")
                .description("Bytes the physical partition's items take").register(registry));
        v.meters.add(Gauge.builder("partita.partition.items", v, x -> x.items).tags(tags)
                .description("Items in the physical partition").register(registry));
        v.meters.add(Gauge.builder("partita.partition.budget.ru.per.second", v, x -> x.budget).tags(tags)
                .description("RU/s the physical partition may serve").register(registry));
        return v;
    }

    private Values containerMeters(Tags tags) {
        Values v = new Values();
        v.meters.add(FunctionCounter.builder("partita.container.splits", v, x -> x.splits).tags(tags)
                .description("Physical partition splits of the container since start").register(registry));
        return v;
    }

    private void retire(Map<Tags, Values> registered, Map<Tags, Values> seen) {
        registered.entrySet().removeIf(e -> {
            if (seen.containsKey(e.getKey())) {
                return false;
            }
            e.getValue().meters.forEach(registry::remove);
            return true;
        });
    }
}
