package dev.partita.core;

import dev.partita.core.error.ServiceException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The platform threads query pages run on. Requests otherwise run on virtual threads, which the JVM never preempts: a
 * page that computes for seconds would hold one of the few carrier threads (one per core) and, with as many such
 * pages as cores, stall every other request. On platform threads the operating system shares the cores, so point
 * reads keep answering while the worst query runs (each page is also bounded by the request deadline).
 */
final class QueryWorkers implements AutoCloseable {
    private final ExecutorService pool;

    QueryWorkers(int threads) {
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "partita-query");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code page} on a query thread and waits for it (a waiting virtual thread frees its carrier). */
    <T> T run(Supplier<T> page) {
        Future<T> f = pool.submit(page::get);
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new ServiceException(503, 0, "The server is shutting down; retry the query.");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
