package dev.partita.server.http;

/** Counts requests being served, so a graceful close can wait for them. */
public final class InFlight {
    private int count;

    synchronized void begin() {
        count++;
    }

    synchronized void end() {
        count--;
        if (count == 0) {
            notifyAll();
        }
    }

    /** Waits until no request is in flight or the time is up; true if none is. */
    public synchronized boolean awaitIdle(long millis) throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (count > 0) {
            long left = (until - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }
}
