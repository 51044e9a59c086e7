package dev.partita.server.http;

/**
 * What the pipeline calls for each request, on a virtual thread. May throw; the handler maps errors to replies.
 *
 * <p>The pipeline first offers each request to {@link #handleWithoutWaiting} on the connection's event loop: the
 * virtual-thread hand-off costs a point read more CPU than the read itself (BENCHMARKS.md, "SDK load harness").
 */
@FunctionalInterface
public interface Dispatcher {
    Reply handle(Exchange exchange);

    /**
     * The reply of {@link #handle} when it can be given without waiting (no I/O, no sleep, no lock held across I/O:
     * only CPU work on memory, such as a point read the store answers from memory), else null. Runs on an event loop,
     * so it must never wait. On null it must have changed nothing (no budget spent, no fault hit), since the pipeline
     * then calls {@link #handle} on a virtual thread. Null unless a dispatcher knows better.
     */
    default Reply handleWithoutWaiting(Exchange exchange) {
        return null;
    }
}
