package dev.partita.core.script;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Stops a script that runs past its time limit or allocates past its memory limit, by cancelling its context from
 * this watchdog's one daemon thread (the community runtime has no built-in CPU or heap limits). A deadline is a
 * scheduled task, so the budget is real elapsed time whatever clock the engine was given.
 */
final class Watchdog implements AutoCloseable {
    /** Why a script was stopped. */
    enum Stop { TIMEOUT, MEMORY }

    private static final long MEMORY_CHECK_MILLIS = 10;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "partita-script-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();

    Watchdog() {
        timer.scheduleWithFixedDelay(this::checkMemory, MEMORY_CHECK_MILLIS, MEMORY_CHECK_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Watches {@code context} while the calling thread runs a script in it; close the watch when it is done. */
    Watch watch(JsContext context, Duration timeout, long maxAllocatedBytes) {
        Watch w = new Watch(context, Thread.currentThread().threadId(), maxAllocatedBytes);
        watched.add(w);
        w.deadline = timer.schedule(() -> w.stop(Stop.TIMEOUT), timeout.toNanos(), TimeUnit.NANOSECONDS);
        return w;
    }

    private void checkMemory() {
        for (Watch w : watched) {
            if (threads.getThreadAllocatedBytes(w.thread) - w.startAllocated > w.maxAllocated) {
                w.stop(Stop.MEMORY);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One execution being watched. */
    final class Watch implements AutoCloseable {
        private final JsContext context;
        private final long thread;
        private final long startAllocated;
        private final long maxAllocated;
        private ScheduledFuture<?> deadline;
        private Stop stopped;
        private boolean done;

        private Watch(JsContext context, long thread, long maxAllocated) {
            this.context = context;
            this.thread = thread;
            this.startAllocated = threads.getThreadAllocatedBytes(thread);
            this.maxAllocated = maxAllocated;
        }

        /** Why the script was stopped, or null if it was not. */
        synchronized Stop stopped() {
            return stopped;
        }

        private void stop(Stop why) {
            synchronized (this) {
                if (done || stopped != null) {
                    return;
                }
                stopped = why;
                context.markBroken();
            }
            watched.remove(this);
            context.close(); // cancels the running script: its thread gets a cancelled PolyglotException
        }

        @Override
        public void close() {
            synchronized (this) {
                done = true;
            }
            deadline.cancel(false);
            watched.remove(this);
        }
    }
}
