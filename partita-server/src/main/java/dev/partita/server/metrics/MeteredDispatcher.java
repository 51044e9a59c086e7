package dev.partita.server.metrics;

import dev.partita.core.Engine;
import dev.partita.core.error.ServiceException;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Counts and times every request the router answers: {@code partita_requests_total} by account, database, container,
 * operation and status ({@code partita_throttled_requests_total} counts the 429s apart), and
 * {@code partita_request_duration_seconds} by account and operation as a histogram. A database or container label is
 * set only for one the catalog knows, so made-up names in unauthenticated requests cannot grow the series.
 */
public final class MeteredDispatcher implements Dispatcher {
    static final String ACCOUNT = "partita";
    private final Dispatcher next;
    private final Engine engine;
    private final MeterRegistry registry;
    private final Map<Series, Counter> requests = new ConcurrentHashMap<>();
    private final Map<Series, Counter> throttled = new ConcurrentHashMap<>();
    private final Map<String, Timer> latency = new ConcurrentHashMap<>();

    /**
     * A counter's labels. Its equals and hashCode are written out: a record's own are bootstrapped at their first call
     * by spinning method handles, which the JVM's start-up cache cannot keep, and the first is a server's first answer.
     */
    private record Series(String database, String container, String operation, int status) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Series s && status == s.status && Objects.equals(database, s.database)
                    && Objects.equals(container, s.container) && Objects.equals(operation, s.operation);
        }

        @Override
        public int hashCode() {
            int h = Objects.hashCode(database) * 31 + Objects.hashCode(container);
            return (h * 31 + Objects.hashCode(operation)) * 31 + status;
        }
    }

    public MeteredDispatcher(Dispatcher next, Engine engine, MeterRegistry registry) {
        this.next = next;
        this.engine = engine;
        this.registry = registry;
    }

    @Override
    public Reply handle(Exchange ex) {
        return metered(ex, next::handle);
    }

    /** Counting and timing never wait (in-memory meters); a request the router gives up on is counted when handled. */
    @Override
    public Reply handleWithoutWaiting(Exchange ex) {
        return metered(ex, next::handleWithoutWaiting);
    }

    private Reply metered(Exchange ex, Function<Exchange, Reply> dispatch) {
        long start = registry.config().clock().monotonicTime();
        int status = 500;
        boolean answered = true;
        try {
            Reply r = dispatch.apply(ex);
            answered = r != null;
            status = answered ? r.status() : status;
            return r;
        } catch (ServiceException e) {
            status = e.status();
            throw e;
        } finally {
            if (answered) {
                record(ex, status, registry.config().clock().monotonicTime() - start);
            }
        }
    }

    private void record(Exchange ex, int status, long nanos) {
        String operation = Operation.of(ex);
        Series s = new Series(database(ex.segments()), container(ex.segments()), operation, status);
        requests.computeIfAbsent(s, k -> counter("partita.requests", "Requests answered", k)).increment();
        if (status == 429) {
            throttled.computeIfAbsent(s, k -> counter("partita.throttled.requests",
                    "Requests refused with 429 (request rate too large)", k)).increment();
        }
        latency.computeIfAbsent(operation, op -> Timer.builder("partita.request.duration")
                .description("Time to answer a request, from its arrival at the router to its reply")
                .tags("account", ACCOUNT, "operation", op)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry)).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private Counter counter(String name, String description, Series s) {
        return Counter.builder(name).description(description)
                .tags("account", ACCOUNT, "database", s.database(), "container", s.container(),
                        "operation", s.operation(), "status", Integer.toString(s.status()))
                .register(registry);
    }

    private String database(List<String> seg) {
        if (seg.size() < 2 || !seg.get(0).equals("dbs")) {
            return "";
        }
        try {
            return engine.readDatabase(seg.get(1)).id();
        } catch (ServiceException e) {
            return "";
        }
    }

    private String container(List<String> seg) {
        if (seg.size() < 4 || !seg.get(0).equals("dbs") || !seg.get(2).equals("colls")) {
            return "";
        }
        try {
            return engine.readContainer(seg.get(1), seg.get(3)).id();
        } catch (ServiceException e) {
            return "";
        }
    }
}
