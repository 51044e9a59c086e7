package dev.partita.server.http;

import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/**
 * What the pipeline calls for each request, on a virtual thread. May throw; the handler maps errors to replies.
 *
 * <p>A request {@link #neverBlocks} for may instead be handled on the connection's event loop: the virtual-thread
 * hand-off costs a point read more CPU than the read itself (BENCHMARKS.md, "SDK load harness").
 */
@FunctionalInterface
public interface Dispatcher {
    Reply handle(Exchange exchange);

    /**
     * Whether handling this request can never wait: no I/O, no sleep, no lock held across I/O — only CPU work on
     * memory (an in-memory point read). Only then may it run on an event loop. False unless a dispatcher knows.
     */
    default boolean neverBlocks(HttpMethod method, List<String> segments) {
        return false;
    }
}
