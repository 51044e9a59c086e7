package dev.partita.examples.shipments;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PriorityLevel;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Contoso's nightly batch written four ways on the {@code /tenantId} container while a small tenant that shares its
 * physical partition keeps writing at its usual rate. Measured: the batch's 429s, how long it took, and the 429s the
 * neighbour met. The client-side levers of the record: a naive client that retries at once, bulk with the SDK's
 * retries (which wait {@code x-ms-retry-after-ms}), a rate-limited job that waits the retry-after itself, and the
 * batch at low priority.
 */
public final class Mitigations {
    static final String LOW = "nightly-batch-low";
    /** The naive client's pause after a 429: it ignores {@code x-ms-retry-after-ms}. */
    static final Duration NAIVE_PAUSE = Duration.ofMillis(10);
    static final int NAIVE_WRITERS = 4;
    /** How long the neighbour goes on writing after the batch: long enough to meet a debt the batch left. */
    static final Duration TAIL = Duration.ofSeconds(1);
    /** The rate-limited job's share of its partition: room is left for the tenants beside it. */
    static final double LIMITED_SHARE = 0.5;
    private static final AtomicLong BATCH = new AtomicLong();

    public enum Mode {
        NAIVE("4 writers, retry at once"),
        RATE_LIMITED("rate-limited to 1/2 of the partition"),
        LOW_PRIORITY("4 writers at low priority"),
        /** Last: Partita admits a bulk request whole, so it leaves its partition in debt for a while. */
        BULK("bulk, SDK retries honour retry-after");

        final String label;

        Mode(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** What one way of running the batch did. */
    public record Outcome(Mode mode, int shipments, long written, long batchThrottled, double seconds,
            long neighbourSent, long neighbourThrottled) {
        /** The share of the neighbour's writes refused. */
        public double neighbourRefused() {
            return neighbourSent == 0 ? 0 : neighbourThrottled / (double) neighbourSent;
        }
    }

    private final CosmosContainer withRetries;
    private final CosmosContainer noRetries;
    private final String neighbour;
    private final double neighbourRus;
    private final double writeCharge;
    private final double partitionRus;
    private final java.time.Clock clock;
    private boolean lowEnabled;

    /**
     * @param withRetries  the container through a client with the SDK's default retries (for bulk)
     * @param noRetries    the same container through a client without 429 retries
     * @param neighbour    a tenant on Contoso's physical partition
     * @param partitionRus the physical partition's share of the container's throughput
     */
    public Mitigations(CosmosContainer withRetries, CosmosContainer noRetries, String neighbour, double neighbourRus,
            double writeCharge, double partitionRus) {
        this(withRetries, noRetries, neighbour, neighbourRus, writeCharge, partitionRus, java.time.Clock.systemUTC());
    }

    /** As above, timing the batches with {@code clock}. */
    public Mitigations(CosmosContainer withRetries, CosmosContainer noRetries, String neighbour, double neighbourRus,
            double writeCharge, double partitionRus, java.time.Clock clock) {
        this.clock = clock;
        this.withRetries = withRetries;
        this.noRetries = noRetries;
        this.neighbour = neighbour;
        this.neighbourRus = neighbourRus;
        this.writeCharge = writeCharge;
        this.partitionRus = partitionRus;
    }

    /**
     * Writes {@code shipments} new Contoso shipments the given way while the neighbour writes, from the batch's start
     * until a second after its end (a batch that ends early may have left its partition in debt, which the
     * neighbour then pays). The ways take different times: compare the neighbour's share of refused writes.
     */
    public Outcome run(Mode mode, int shipments) throws Exception {
        long base = 100_000_000L * BATCH.incrementAndGet();
        List<ObjectNode> batch = new ArrayList<>();
        for (int i = 0; i < shipments; i++) {
            batch.add(Shipment.of(LoadModel.CONTOSO, base + i));
        }
        HotTenantExperiment.settle(); // every way starts with a fresh budget window
        AtomicLong doneAt = new AtomicLong(Long.MAX_VALUE);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<NightlyLoad.Result> neighbourLoad = threads.submit(() -> NightlyLoad.run(noRetries, Layout.TENANT,
                    List.of(new LoadModel.Tenant(neighbour, neighbourRus)), writeCharge, Duration.ofMinutes(10), 0,
                    () -> clock.millis() > doneAt.get()));
            long start = clock.millis();
            long[] counts;
            long end;
            try {
                counts = switch (mode) {
                    case NAIVE -> naive(batch, false);
                    case LOW_PRIORITY -> naive(batch, true);
                    case BULK -> bulk(batch);
                    case RATE_LIMITED -> rateLimited(batch);
                };
            } finally {
                end = clock.millis();
                doneAt.set(end + TAIL.toMillis()); // the neighbour stops however the batch ended
            }
            NightlyLoad.TenantResult n = neighbourLoad.get().tenant(neighbour);
            return new Outcome(mode, shipments, counts[0], counts[1], (end - start) / 1e3, n.sent(), n.throttled());
        }
    }

    /** Parallel writers that retry a refused write after a short fixed pause, ignoring the retry-after. */
    private long[] naive(List<ObjectNode> batch, boolean lowPriority) throws Exception {
        if (lowPriority) {
            synchronized (this) {
                if (!lowEnabled) {
                    noRetries.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder()
                            .groupName(LOW).priorityLevel(PriorityLevel.LOW).build());
                    lowEnabled = true;
                }
            }
        }
        AtomicInteger next = new AtomicInteger();
        LongAdder written = new LongAdder();
        LongAdder throttled = new LongAdder();
        try (ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < NAIVE_WRITERS; w++) {
                writers.submit(() -> {
                    for (int i = next.getAndIncrement(); i < batch.size(); i = next.getAndIncrement()) {
                        ObjectNode s = batch.get(i);
                        while (true) {
                            try {
                                // options per write: the SDK writes the call's key into them (see NightlyLoad)
                                CosmosItemRequestOptions options = NightlyLoad.writeOptions();
                                if (lowPriority) {
                                    options.setThroughputControlGroupName(LOW);
                                }
                                noRetries.upsertItem(s, Layout.TENANT.key(s), options);
                                written.increment();
                                break;
                            } catch (CosmosException e) {
                                if (e.getStatusCode() != 429) {
                                    throw e;
                                }
                                throttled.increment();
                                Thread.sleep(NAIVE_PAUSE);
                            }
                        }
                    }
                    return null;
                });
            }
        }
        return new long[] {written.sum(), throttled.sum()};
    }

    /** The SDK's bulk executor; its 429 retries wait the server's retry-after. Retries counted from diagnostics. */
    private long[] bulk(List<ObjectNode> batch) {
        List<CosmosItemOperation> ops = new ArrayList<>();
        for (ObjectNode s : batch) {
            ops.add(CosmosBulkOperations.getUpsertItemOperation(s, Layout.TENANT.key(s)));
        }
        long written = 0;
        long retries = 0;
        for (CosmosBulkOperationResponse<Object> r : withRetries.<Object>executeBulkOperations(ops)) {
            if (r.getResponse() != null) {
                if (r.getResponse().isSuccessStatusCode()) {
                    written++;
                }
                var d = r.getResponse().getCosmosDiagnostics();
                retries += d == null || d.getDiagnosticsContext() == null ? 0
                        : d.getDiagnosticsContext().getRetryCount();
            }
        }
        return new long[] {written, retries};
    }

    /** One writer paced at half of the partition's RU/s; a 429 is waited out as the server asks. */
    private long[] rateLimited(List<ObjectNode> batch) throws InterruptedException {
        RuRateLimiter limiter = new RuRateLimiter(partitionRus * LIMITED_SHARE);
        CosmosItemRequestOptions options = new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(false);
        long written = 0;
        long throttled = 0;
        for (ObjectNode s : batch) {
            while (true) {
                try {
                    limiter.spent(noRetries.upsertItem(s, Layout.TENANT.key(s), options).getRequestCharge());
                    written++;
                    break;
                } catch (CosmosException e) {
                    if (e.getStatusCode() != 429) {
                        throw e;
                    }
                    throttled++;
                    Thread.sleep(e.getRetryAfterDuration()); // x-ms-retry-after-ms
                }
            }
        }
        return new long[] {written, throttled};
    }

    /** Finds a tenant on Contoso's physical partition, creating one-shipment tenants until one lands there. */
    public static String neighbourOf(HotTenantExperiment.Variant tenantKeyed, String contoso) {
        CosmosContainer container = tenantKeyed.container();
        java.util.Map<String, Integer> where = tenantKeyed.partitionOfTenants();
        int home = where.get(contoso);
        for (var e : where.entrySet()) {
            if (e.getValue() == home && !e.getKey().equals(contoso)) {
                return e.getKey();
            }
        }
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 20; i++) {
                ObjectNode s = Shipment.of("neighbour-" + round + "-" + i, 0);
                container.upsertItem(s, Layout.TENANT.key(s), new CosmosItemRequestOptions());
            }
            where = HotTenantExperiment.partitionOfTenants(container);
            for (var e : where.entrySet()) {
                if (e.getValue() == home && e.getKey().startsWith("neighbour-")) {
                    return e.getKey();
                }
            }
        }
        throw new IllegalStateException("No tenant found on Contoso's partition");
    }
}
