package dev.partita.server.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts requests being served, so a graceful close can wait for them. The wait is a real-time grace period of the
 * process, not service time, so it uses the lock's timed wait rather than the engine's clock.
 */
public final class InFlight {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int count;

    void begin() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    void end() {
        lock.lock();
        try {
            if (--count == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no request is in flight or the time is up; true if none is. */
    public boolean awaitIdle(long millis) throws InterruptedException {
        lock.lock();
        try {
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (count > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = idle.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
