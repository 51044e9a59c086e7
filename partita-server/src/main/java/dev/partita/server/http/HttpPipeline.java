package dev.partita.server.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The per-connection pipeline: [TLS, optional] → HTTP codec → transfer-coding check ({@link TransferCodings}) →
 * idle timeout → keep-alive → body aggregation with a size guard → {@link GatewayHandler}. With TLS on, a connection that does not start with a TLS handshake is served as
 * plain HTTP on the same port.
 */
public final class HttpPipeline extends ChannelInitializer<SocketChannel> {
    /** Longest request line and header block accepted (the SDK's own response limits are 4 KB and 32 KB). */
    private static final int MAX_INITIAL_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 64 * 1024;
    private static final int MAX_CHUNK = 64 * 1024;

    private final SslContext ssl;
    private final Dispatcher dispatcher;
    private final Executor executor;
    private final Clock clock;
    private final InFlight inFlight;
    private final int maxBody;
    private final Duration idleTimeout;
    private final ChannelGroup channels;

    /**
     * @param ssl     null for plain HTTP only
     * @param maxBody the largest request body accepted before 413
     */
    public HttpPipeline(SslContext ssl, Dispatcher dispatcher, Executor executor, Clock clock, InFlight inFlight,
            int maxBody, Duration idleTimeout, ChannelGroup channels) {
        this.ssl = ssl;
        this.dispatcher = dispatcher;
        this.executor = executor;
        this.clock = clock;
        this.inFlight = inFlight;
        this.maxBody = maxBody;
        this.idleTimeout = idleTimeout;
        this.channels = channels;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        channels.add(ch);
        ChannelPipeline p = ch.pipeline();
        if (ssl != null) {
            p.addLast("tls", new OptionalSslHandler(ssl));
        }
        p.addLast("codec", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, MAX_CHUNK));
        p.addLast("codings", new TransferCodings());
        p.addLast("idle", new IdleStateHandler(0, 0, idleTimeout.toMillis(), TimeUnit.MILLISECONDS));
        p.addLast("keepalive", new HttpServerKeepAliveHandler());
        GatewayHandler gateway = new GatewayHandler(dispatcher, executor, clock, inFlight);
        p.addLast("aggregate", new OversizeGuard(maxBody, gateway));
        p.addLast("gateway", gateway);
    }
}
