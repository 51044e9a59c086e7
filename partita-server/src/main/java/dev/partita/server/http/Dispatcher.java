package dev.partita.server.http;

/** What the pipeline calls for each request, on a virtual thread. May throw; the handler maps errors to replies. */
@FunctionalInterface
public interface Dispatcher {
    Reply handle(Exchange exchange);
}
