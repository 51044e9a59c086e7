package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The nightly load as an open loop: every tenant writes new shipments at its own rate (RU/s divided by the price of
 * one write), whatever the answers, as independent clients do. Needs a container whose client does not retry 429s,
 * so every refusal is counted. A slot the machine could not serve on time is skipped rather than sent in a burst.
 */
public final class NightlyLoad {
    /** A slot later than this is skipped: a loaded machine must not turn a steady load into bursts. */
    static final long LATE_NANOS = Duration.ofMillis(250).toNanos();
    private static final AtomicLong RUN = new AtomicLong();

    /** One tenant's figures. */
    public record TenantResult(String tenantId, double askedRus, long sent, long written, long throttled,
            double chargedRu, long failed) {
    }

    /** The run's figures. */
    public record Result(List<TenantResult> tenants, double seconds, int provisionedRus,
            java.util.Map<String, Long> failures) {
        public TenantResult tenant(String id) {
            return tenants.stream().filter(t -> t.tenantId().equals(id)).findFirst().orElseThrow();
        }

        /** RU/s the account actually served. */
        public double servedRus() {
            return tenants.stream().mapToDouble(TenantResult::chargedRu).sum() / seconds;
        }

        public double servedRus(String tenantId) {
            return tenant(tenantId).chargedRu() / seconds;
        }

        public long othersThrottled() {
            return tenants.stream().filter(t -> !t.tenantId().equals(LoadModel.CONTOSO))
                    .mapToLong(TenantResult::throttled).sum();
        }

        public long othersThrottledTenants() {
            return tenants.stream().filter(t -> !t.tenantId().equals(LoadModel.CONTOSO) && t.throttled() > 0).count();
        }

        public long throttled() {
            return tenants.stream().mapToLong(TenantResult::throttled).sum();
        }

        /** Writes that failed otherwise than with 429 (e.g. 403/1014 once a logical partition is full). */
        public long failed() {
            return tenants.stream().mapToLong(TenantResult::failed).sum();
        }
    }

    private NightlyLoad() {
    }

    /**
     * Runs the load for {@code duration} against {@code container} (reached through a client without 429 retries).
     *
     * @param writeCharge the price of one shipment write, measured beforehand
     */
    public static Result run(CosmosContainer container, Layout layout, List<LoadModel.Tenant> tenants,
            double writeCharge, Duration duration, int provisionedRus) {
        return run(container, layout, tenants, writeCharge, duration, provisionedRus, () -> false);
    }

    /** As the other {@code run}, ending early once {@code stop} says so. */
    public static Result run(CosmosContainer container, Layout layout, List<LoadModel.Tenant> tenants,
            double writeCharge, Duration duration, int provisionedRus, java.util.function.BooleanSupplier stop) {
        return run(container, layout, tenants, writeCharge, duration, provisionedRus, stop, java.time.Clock.systemUTC());
    }

    /** As the other {@code run}, pacing the writes by {@code clock}. */
    public static Result run(CosmosContainer container, Layout layout, List<LoadModel.Tenant> tenants,
            double writeCharge, Duration duration, int provisionedRus, java.util.function.BooleanSupplier stop,
            java.time.Clock clock) {
        int n = tenants.size();
        LongAdder[] sent = adders(n);
        LongAdder[] written = adders(n);
        LongAdder[] throttled = adders(n);
        LongAdder[] failed = adders(n);
        java.util.Map<String, Long> failures = new java.util.concurrent.ConcurrentSkipListMap<>();
        DoubleAdder[] charged = new DoubleAdder[n];
        for (int i = 0; i < n; i++) {
            charged[i] = new DoubleAdder();
        }
        long[] interval = new long[n];
        for (int i = 0; i < n; i++) {
            interval[i] = (long) (writeCharge / tenants.get(i).rus() * 1e9);
        }
        // shipment numbers of this run: unique across runs, so every write is a new shipment
        long base = 10_000_000L * RUN.incrementAndGet();
        AtomicLong next = new AtomicLong(base);
        long start = nanos(clock);
        long end = start + duration.toNanos();
        PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        for (int i = 0; i < n; i++) {
            due.add(new long[] {start + (long) (interval[i] * ((i * 0.618) % 1.0)), i}); // staggered first slots
        }
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            while (true) {
                long[] slot = due.poll();
                if (slot[0] >= end || stop.getAsBoolean()) {
                    break;
                }
                int t = (int) slot[1];
                due.add(new long[] {slot[0] + interval[t], t});
                long wait = slot[0] - nanos(clock);
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } else if (-wait > LATE_NANOS) {
                    continue;
                }
                sent[t].increment();
                ObjectNode shipment = Shipment.of(tenants.get(t).id(), next.incrementAndGet());
                clients.submit(() -> {
                    try {
                        charged[t].add(container.upsertItem(shipment, layout.key(shipment), writeOptions())
                                .getRequestCharge());
                        written[t].increment();
                    } catch (CosmosException e) {
                        if (e.getStatusCode() == 429) {
                            throttled[t].increment();
                        } else {
                            failed[t].increment();
                            failures.merge(e.getStatusCode() + "/" + e.getSubStatusCode(), 1L, Long::sum);
                        }
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double seconds = (nanos(clock) - start) / 1e9;
        List<TenantResult> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new TenantResult(tenants.get(i).id(), tenants.get(i).rus(), sent[i].sum(), written[i].sum(),
                    throttled[i].sum(), charged[i].sum(), failed[i].sum()));
        }
        return new Result(List.copyOf(out), Math.min(seconds, duration.toNanos() / 1e9), provisionedRus,
                java.util.Map.copyOf(failures));
    }

    /**
     * Options for one write. Never share one instance between concurrent writes: the SDK stores the call's partition
     * key in the options it is given ({@code upsertItem} sets it before the request is built), so a write can go out
     * with another write's key in {@code x-ms-documentdb-partitionkey} and its own body, which the service refuses
     * with 400/1001 (PartitionKeyMismatch).
     */
    static CosmosItemRequestOptions writeOptions() {
        return new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(false);
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** The clock's time in nanoseconds since the epoch (the pacing needs sub-millisecond slots). */
    static long nanos(java.time.Clock clock) {
        java.time.Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
