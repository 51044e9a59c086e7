package dev.partita.bench;

import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs a bounded number of operations of one {@link BenchOperation} at a fixed number in flight (closed loop: an operation
 * starts when one completes), timing each one from subscription (async) or call (sync) to its last byte.
 *
 * <ul>
 *   <li>{@code async}: {@code Flux.range(0, ops).flatMap(op, concurrency)} over {@link CosmosAsyncContainer}, as the
 *       SDK's own benchmark tool does. The next operation is issued on the thread that completed the previous one
 *       (a Reactor Netty event loop), so no thread hand-off happens per operation.</li>
 *   <li>{@code sync}: {@code concurrency} virtual threads loop over the blocking {@link CosmosContainer}; each call
 *       blocks its virtual thread on the same async pipeline and is woken by the event loop (one extra park/unpark and
 *       carrier hand-off per operation).</li>
 * </ul>
 */
final class LoadDriver {
    private static final String SDK_QUERY = "SELECT TOP 100 * FROM c ORDER BY c._ts";
    private static final String PK_QUERY = "SELECT * FROM c WHERE c.pk = @pk";

    private final CosmosAsyncContainer async;
    private final CosmosContainer sync;
    private final Documents docs;
    private final int items;
    private final boolean sdkQuery;
    private final CpuMeter meter;

    LoadDriver(CosmosAsyncContainer async, CosmosContainer sync, Documents docs, int items, String mixedQuery,
            CpuMeter meter) {
        this.async = async;
        this.sync = sync;
        this.docs = docs;
        this.items = items;
        this.sdkQuery = mixedQuery.equals("sdk");
        this.meter = meter;
    }

    /**
     * @param tag  prefix of the ids this run creates (unique per run, so creates never conflict)
     * @param maxTime no operation starts after this; the run then waits for those in flight
     */
    RunResult run(String target, BenchOperation w, int concurrency, int ops, Duration maxTime, String tag) {
        Recorder recorder = new Recorder(3);
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        LongAdder completed = new LongAdder();
        long deadline = System.nanoTime() + maxTime.toNanos();
        CpuMeter.Snapshot before = meter.snapshot();
        long start = System.nanoTime();
        boolean timedOut;
        if (sync == null) {
            timedOut = runAsync(w, concurrency, ops, deadline, maxTime, tag, recorder, errors, completed);
        } else {
            timedOut = runSync(w, concurrency, ops, deadline, maxTime, tag, recorder, errors, completed);
        }
        long wall = System.nanoTime() - start;
        CpuMeter.Usage usage = meter.between(before, meter.snapshot());
        Histogram h = recorder.getIntervalHistogram();
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        long errorTotal = errorCounts.values().stream().mapToLong(Long::longValue).sum();
        return new RunResult(target, w, sync == null ? "async" : "sync", concurrency, completed.sum(), errorTotal,
                errorCounts, wall, h, usage, timedOut || System.nanoTime() > deadline, 1, 1);
    }

    private boolean runAsync(BenchOperation w, int concurrency, int ops, long deadline, Duration maxTime, String tag,
            Recorder recorder, Map<String, LongAdder> errors, LongAdder completed) {
        Flux.range(0, ops)
                .takeWhile(i -> System.nanoTime() < deadline)
                .flatMap(i -> Mono.defer(() -> {
                    long t0 = System.nanoTime();
                    return asyncOp(w, i, tag)
                            .then(Mono.fromRunnable(() -> {
                                recorder.recordValue(System.nanoTime() - t0);
                                completed.increment();
                            }))
                            .onErrorResume(e -> {
                                errors.computeIfAbsent(code(e), k -> new LongAdder()).increment();
                                return Mono.empty();
                            });
                }), concurrency, 1)
                .blockLast(maxTime.plusSeconds(120));
        return false;
    }

    private Mono<?> asyncOp(BenchOperation w, int i, String tag) {
        BenchOperation.Kind kind = kindOf(w, i);
        return switch (kind) {
            case READ -> {
                int r = ThreadLocalRandom.current().nextInt(items);
                yield async.readItem(Documents.readId(r), new PartitionKey(Documents.readPk(r)), ObjectNode.class);
            }
            case WRITE -> {
                String pk = Documents.writePk(i);
                yield async.createItem(docs.item(tag + "-" + i, pk, i), new PartitionKey(pk),
                        new CosmosItemRequestOptions());
            }
            case MIXED -> {
                // the query of the mix
                if (sdkQuery) {
                    yield async.queryItems(SDK_QUERY, new CosmosQueryRequestOptions(), ObjectNode.class)
                            .byPage(10).then();
                }
                String pk = Documents.readPk(ThreadLocalRandom.current().nextInt(items));
                CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey(pk));
                yield async.queryItems(new SqlQuerySpec(PK_QUERY, new SqlParameter("@pk", pk)), o, ObjectNode.class)
                        .byPage().then();
            }
        };
    }

    private boolean runSync(BenchOperation w, int concurrency, int ops, long deadline, Duration maxTime, String tag,
            Recorder recorder, Map<String, LongAdder> errors, LongAdder completed) {
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("load-", 0).factory());
        try {
            for (int c = 0; c < concurrency; c++) {
                pool.execute(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < ops && System.nanoTime() < deadline) {
                        long t0 = System.nanoTime();
                        try {
                            syncOp(w, (int) i, tag);
                            recorder.recordValue(System.nanoTime() - t0);
                            completed.increment();
                        } catch (RuntimeException e) {
                            errors.computeIfAbsent(code(e), k -> new LongAdder()).increment();
                        }
                    }
                });
            }
        } finally {
            pool.shutdown();
        }
        try {
            return !pool.awaitTermination(maxTime.toSeconds() + 120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
            return true;
        }
    }

    private void syncOp(BenchOperation w, int i, String tag) {
        switch (kindOf(w, i)) {
            case READ -> {
                int r = ThreadLocalRandom.current().nextInt(items);
                sync.readItem(Documents.readId(r), new PartitionKey(Documents.readPk(r)), ObjectNode.class);
            }
            case WRITE -> {
                String pk = Documents.writePk(i);
                sync.createItem(docs.item(tag + "-" + i, pk, i), new PartitionKey(pk), new CosmosItemRequestOptions());
            }
            case MIXED -> {
                Iterable<FeedResponse<ObjectNode>> pages;
                if (sdkQuery) {
                    pages = sync.queryItems(SDK_QUERY, new CosmosQueryRequestOptions(), ObjectNode.class)
                            .iterableByPage(10);
                } else {
                    String pk = Documents.readPk(ThreadLocalRandom.current().nextInt(items));
                    CosmosQueryRequestOptions o =
                            new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey(pk));
                    pages = sync.queryItems(new SqlQuerySpec(PK_QUERY, new SqlParameter("@pk", pk)), o,
                            ObjectNode.class).iterableByPage();
                }
                for (FeedResponse<ObjectNode> page : pages) {
                    page.getResults().size();
                }
            }
        }
    }

    /** What operation {@code i} of a workload is; Mixed follows the SDK tool's index arithmetic. */
    static BenchOperation.Kind kindOf(BenchOperation w, int i) {
        if (w.kind != BenchOperation.Kind.MIXED) {
            return w.kind;
        }
        if (i % 100 == 0) {
            return BenchOperation.Kind.MIXED; // the query
        }
        return i % 10 == 0 ? BenchOperation.Kind.WRITE : BenchOperation.Kind.READ;
    }

    private static String code(Throwable e) {
        Throwable t = e;
        while (t != null && !(t instanceof CosmosException)) {
            t = t.getCause();
        }
        if (t instanceof CosmosException ce) {
            return ce.getStatusCode() + "/" + ce.getSubStatusCode();
        }
        return e.getClass().getSimpleName();
    }
}
