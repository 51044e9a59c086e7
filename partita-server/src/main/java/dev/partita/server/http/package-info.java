/**
 * The HTTP/1.1 pipeline: TLS (optional on the same port), the codec, keep-alive, an idle timeout, a body-size guard
 * that answers 413 before buffering an oversize body, and {@link dev.partita.server.http.GatewayHandler}, which hands
 * each request to a virtual thread so event loops never block (a request answered without waiting, a point read of an
 * item the store has in memory, is answered on the loop:
 * {@link dev.partita.server.http.Dispatcher#handleWithoutWaiting}). {@link dev.partita.server.http.Exchange} and
 * {@link dev.partita.server.http.Reply} are the request and response the routes see. May depend on core's error type;
 * knows nothing of routes beyond the {@link dev.partita.server.http.Dispatcher} interface.
 */
package dev.partita.server.http;
