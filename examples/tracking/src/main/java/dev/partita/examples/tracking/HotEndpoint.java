package dev.partita.examples.tracking;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ThroughputProperties;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The hot-endpoint ceiling: one endpoint writes as fast as it can while the others write now and then. With
 * throughput enforced per physical partition, the hot endpoint tops out at its partition's share of the container's
 * request units; endpoints on other partitions are not throttled at all. Needs a client whose 429 retries are off.
 */
public final class HotEndpoint {
    static final int ENDPOINTS = 20;
    static final int HOT_WRITERS = 8;
    /** The other endpoints write now and then: one write somewhere every 50 ms. */
    static final Duration OTHER_PAUSE = Duration.ofMillis(50);

    /** What the experiment saw. */
    public record Result(int partitions, double shareRuPerSecond, double hotRuPerSecond, long hotWrites,
            long hotThrottled, int othersThrottled, int othersWritten, int others) {
    }

    private HotEndpoint() {
    }

    public static Result measure(CosmosClient noRetries, int throughput, Duration duration) {
        return measure(noRetries, throughput, duration, java.time.Clock.systemUTC());
    }

    /** As above, with the run's length measured by {@code clock}. */
    public static Result measure(CosmosClient noRetries, int throughput, Duration duration, java.time.Clock clock) {
        String name = "tracking-hot-" + UUID.randomUUID().toString().substring(0, 8);
        noRetries.createDatabase(name);
        CosmosDatabase database = noRetries.getDatabase(name);
        try {
            TrackingStore store = new TrackingStore(TrackingStore.create(database,
                    ThroughputProperties.createManualThroughput(throughput)), new QueryLog());
            int partitions = store.container().getFeedRanges().size();
            EndpointScope hot = store.endpoint("endpoint-0");
            long[] otherThrottles = new long[ENDPOINTS];
            long[] otherWrites = new long[ENDPOINTS];
            DoubleAdder hotCharge = new DoubleAdder();
            LongAdder hotWrites = new LongAdder();
            LongAdder hotThrottled = new LongAdder();
            java.time.Instant deadline = clock.instant().plus(duration);
            AtomicInteger sequence = new AtomicInteger();
            // the hot endpoint: several writers, as a busy endpoint's resolvers would be
            try (ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int w = 0; w < HOT_WRITERS; w++) {
                    writers.submit(() -> {
                        while (clock.instant().isBefore(deadline)) {
                            try {
                                hotCharge.add(hot.upsertCharged(TrackingFixtureRows.row(sequence.incrementAndGet())));
                                hotWrites.increment();
                            } catch (CosmosException e) {
                                if (e.getStatusCode() != 429) {
                                    throw e;
                                }
                                hotThrottled.increment();
                            }
                        }
                        return null;
                    });
                }
                for (int i = 0; clock.instant().isBefore(deadline); i++) {
                    int other = 1 + i % (ENDPOINTS - 1);
                    try {
                        store.endpoint("endpoint-" + other).upsertCharged(TrackingFixtureRows.row(i));
                        otherWrites[other]++;
                    } catch (CosmosException e) {
                        if (e.getStatusCode() != 429) {
                            throw e;
                        }
                        otherThrottles[other]++;
                    }
                    Thread.sleep(OTHER_PAUSE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int throttledOthers = 0;
            int writtenOthers = 0;
            for (int e = 1; e < ENDPOINTS; e++) {
                throttledOthers += otherThrottles[e] > 0 ? 1 : 0;
                writtenOthers += otherWrites[e] > 0 ? 1 : 0;
            }
            return new Result(partitions, throughput / (double) partitions,
                    hotCharge.sum() / duration.toMillis() * 1000, hotWrites.sum(), hotThrottled.sum(),
                    throttledOthers, writtenOthers, ENDPOINTS - 1);
        } finally {
            database.delete();
        }
    }
}
