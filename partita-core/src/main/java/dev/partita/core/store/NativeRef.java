package dev.partita.core.store;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference count in front of native memory. Freeing a RocksDB handle while another thread is inside a call on it
 * crashes the JVM, and closes do race with use (a server shutting down, a query timing out); so every call
 * {@linkplain #enter enters} first, {@link #close()} only drops the owner's reference, and whichever thread leaves last
 * frees. Cheaper than a read-write lock: one atomic increment and decrement per call.
 */
final class NativeRef {
    private final AtomicInteger refs = new AtomicInteger(1); // the owner's reference plus one per call in flight
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Runnable free;
    private final String what;

    NativeRef(String what, Runnable free) {
        this.what = what;
        this.free = free;
    }

    /** Takes a reference for the duration of a call, or of a child object; throws once closed. */
    void enter() {
        if (!closed.get()) {
            for (int r = refs.get(); r > 0; r = refs.get()) {
                if (refs.compareAndSet(r, r + 1)) {
                    return;
                }
            }
        }
        throw new IllegalStateException(what + " is closed");
    }

    void exit() {
        if (refs.decrementAndGet() == 0) {
            free.run();
        }
    }

    /** Idempotent; frees at once if nothing is in flight. Returns whether this call did the closing. */
    boolean close() {
        if (closed.compareAndSet(false, true)) {
            exit();
            return true;
        }
        return false;
    }

    boolean isClosed() {
        return closed.get();
    }
}
