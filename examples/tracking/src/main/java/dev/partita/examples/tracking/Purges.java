package dev.partita.examples.tracking;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Purging an endpoint's rows as a background operation: a paged query of ids, then paced deletes, all at low
 * priority, so a purge of a large endpoint cannot starve the resolver. At most one purge per endpoint runs at a time.
 */
public final class Purges implements AutoCloseable {
    public enum State { RUNNING, COMPLETED, FAILED }

    /** What a purge has done so far; never carries row contents. */
    public record Status(String id, String endpointId, State state, long deleted, Instant startedAt,
            Instant finishedAt, String error) {
    }

    private static final int PAGE = 100;

    private final TrackingStore store;
    private final Clock clock;
    private final Duration pause;
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Status> byId = new ConcurrentHashMap<>();
    private final Map<String, String> runningByEndpoint = new ConcurrentHashMap<>();

    /** @param deletesPerSecond the pace of deletes (a purge's share of the endpoint's throughput) */
    public Purges(TrackingStore store, Clock clock, int deletesPerSecond) {
        this.store = store;
        this.clock = clock;
        this.pause = Duration.ofNanos(1_000_000_000L / Math.max(1, deletesPerSecond));
    }

    /** Starts a purge, or returns the running one's status (with {@code started} false) when one is in progress. */
    public Started start(String endpointId) {
        String id = UUID.randomUUID().toString();
        Status status = new Status(id, endpointId, State.RUNNING, 0, clock.instant(), null, null);
        byId.put(id, status);
        String running = runningByEndpoint.putIfAbsent(endpointId, id);
        if (running != null) {
            byId.remove(id);
            return new Started(false, byId.get(running));
        }
        workers.submit(() -> run(status));
        return new Started(true, status);
    }

    /** The result of {@link #start}. */
    public record Started(boolean started, Status status) {
    }

    public Optional<Status> status(String purgeId) {
        return Optional.ofNullable(byId.get(purgeId));
    }

    private void run(Status initial) {
        EndpointScope scope = store.endpoint(initial.endpointId());
        long deleted = 0;
        try {
            while (true) {
                // always the first page: what was deleted is gone, so a continuation would skip rows
                Page<String> ids = scope.ids(PAGE, null);
                if (ids.rows().isEmpty()) {
                    break;
                }
                for (String id : ids.rows()) {
                    if (scope.delete(id)) {
                        deleted++;
                    }
                    byId.put(initial.id(), progress(initial, State.RUNNING, deleted, null, null));
                    Thread.sleep(pause);
                }
            }
            byId.put(initial.id(), progress(initial, State.COMPLETED, deleted, clock.instant(), null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            byId.put(initial.id(), progress(initial, State.FAILED, deleted, clock.instant(), "interrupted"));
        } catch (RuntimeException e) {
            byId.put(initial.id(), progress(initial, State.FAILED, deleted, clock.instant(),
                    e.getClass().getSimpleName()));
        } finally {
            runningByEndpoint.remove(initial.endpointId(), initial.id());
        }
    }

    private static Status progress(Status s, State state, long deleted, Instant finished, String error) {
        return new Status(s.id(), s.endpointId(), state, deleted, s.startedAt(), finished, error);
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
