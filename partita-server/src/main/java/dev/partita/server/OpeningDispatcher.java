package dev.partita.server;

import dev.partita.core.error.ServiceException;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The dispatcher of a server that listens before its engine has opened: a request waits for the engine on its
 * virtual thread (never on an event loop), then goes to the real dispatcher; once the engine is open this adds one
 * read of a completed future per request. A request after the engine failed to open is a 503.
 */
final class OpeningDispatcher implements Dispatcher {
    private final CompletableFuture<Dispatcher> opened;
    private volatile Dispatcher open;

    OpeningDispatcher(CompletableFuture<Dispatcher> opened) {
        this.opened = opened;
        opened.thenAccept(d -> open = d);
    }

    @Override
    public Reply handle(Exchange exchange) {
        Dispatcher d = open;
        if (d == null) {
            try {
                d = opened.join();
            } catch (CompletionException | CancellationException e) {
                throw new ServiceException(503, 0, "The server could not open its store; see the server's log.");
            }
        }
        return d.handle(exchange);
    }

    @Override
    public Reply handleWithoutWaiting(Exchange exchange) {
        Dispatcher d = open;
        return d == null ? null : d.handleWithoutWaiting(exchange);
    }
}
