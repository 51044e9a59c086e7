package dev.partita.server.http;

import dev.partita.core.error.ServiceException;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a connection: takes each complete request, runs the {@link Dispatcher} on a virtual thread and
 * writes the reply with the headers every response carries. Requests of one connection are answered one at a time in
 * order (a pipelined request waits, and reading pauses meanwhile), so a slow request never blocks the event loop and
 * responses never overtake each other.
 *
 * <p>The one exception to the hand-off: a request the dispatcher can answer {@link Dispatcher#handleWithoutWaiting
 * without waiting} (a point read whose item the store has in memory, a create or upsert on the memory store while its
 * partition's writer is free) is answered on the event loop, since the hand-off would cost more CPU than the request
 * itself. The rule "event loops never block" still holds: the dispatcher gives up
 * (and the request goes to a virtual thread) rather than wait for anything.
 */
public final class GatewayHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayHandler.class);
    /** The gateway version the service reports; informational for the SDK. */
    static final String GATEWAY_VERSION = "version=2.14.0";
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    /** The last {@code Date} header value and its second, shared by every connection's handler. */
    private static volatile HttpDate lastDate;

    private final Dispatcher dispatcher;
    private final Executor executor;
    private final Clock clock;
    private final InFlight inFlight;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private boolean busy;

    public GatewayHandler(Dispatcher dispatcher, Executor executor, Clock clock, InFlight inFlight) {
        this.dispatcher = dispatcher;
        this.executor = executor;
        this.clock = clock;
        this.inFlight = inFlight;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest req)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (busy) {
            waiting.add(req);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        start(ctx, req);
    }

    private void start(ChannelHandlerContext ctx, FullHttpRequest req) {
        busy = true;
        inFlight.begin();
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        boolean secure = ctx.pipeline().get(SslHandler.class) != null;
        String activityId = activityId(req.headers());
        if (!req.decoderResult().isSuccess()) {
            req.release();
            Reply refusal = req.decoderResult().cause() instanceof TransferCodings.Refused r
                    ? ErrorReplies.of(r.status(), 0, r.getMessage(), 0, activityId)
                    : ErrorReplies.of(400, 0, "The request is not valid HTTP/1.1.", 0, activityId);
            FullHttpResponse resp = finish(refusal, activityId, false);
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE).addListener(f -> done(ctx));
            return;
        }
        Exchange ex;
        try {
            String path = PathDecoder.path(req.uri());
            ex = new Exchange(req.method(), path, PathDecoder.segments(path), req.headers(), req.content(),
                    activityId, secure);
        } catch (ServiceException e) {
            respond(ctx, req, ErrorReplies.of(e, activityId), activityId, keepAlive);
            return;
        } catch (RuntimeException e) {
            LOG.error("Unexpected error decoding a {} request's path, activity id {}", req.method(), activityId, e);
            respond(ctx, req, ErrorReplies.internal(activityId), activityId, keepAlive);
            return;
        }
        // answered here on the event loop when nothing on its way waits (the dispatcher gives up otherwise): the
        // hand-off to a virtual thread would cost more CPU than such a request itself
        Reply now = run(ex, dispatcher::handleWithoutWaiting);
        if (now != null) {
            respond(ctx, req, now, activityId, keepAlive);
            return;
        }
        try {
            executor.execute(() -> respond(ctx, req, run(ex, dispatcher::handle), activityId, keepAlive));
        } catch (RejectedExecutionException e) {
            req.release();
            Reply closing = ErrorReplies.of(503, 0, "The server is shutting down.", 0, activityId);
            ctx.writeAndFlush(finish(closing, activityId, false))
                    .addListener(ChannelFutureListener.CLOSE).addListener(f -> done(ctx));
        }
    }

    /** Releases the request and writes its reply (from any thread; Netty hands a write to the channel's loop). */
    private void respond(ChannelHandlerContext ctx, FullHttpRequest req, Reply reply, String activityId,
            boolean keepAlive) {
        FullHttpResponse resp;
        try {
            resp = finish(reply, activityId, keepAlive);
        } finally {
            req.release();
        }
        ctx.writeAndFlush(resp).addListener(f -> {
            if (!f.isSuccess()) {
                ctx.close();
            }
            done(ctx);
        });
    }

    /**
     * Runs on the event loop once a response is written: start the next waiting request, or read again. The next
     * request starts as a new task, not a nested call: a write on the loop may complete at once, and a long queue of
     * pipelined requests answered on the loop would otherwise recurse; {@code busy} stays set meanwhile, so a request
     * read in between queues behind it.
     */
    private void done(ChannelHandlerContext ctx) {
        inFlight.end();
        FullHttpRequest next = waiting.poll();
        if (next == null) {
            busy = false;
            if (ctx.channel().isActive()) {
                ctx.channel().config().setAutoRead(true);
            }
            return;
        }
        ctx.executor().execute(() -> {
            if (ctx.channel().isActive()) {
                start(ctx, next);
            } else {
                next.release();
                busy = false; // channelInactive releases the rest of the queue
            }
        });
    }

    /** The dispatcher's reply, or the reply of what it threw. */
    private Reply run(Exchange ex, Function<Exchange, Reply> dispatch) {
        try {
            return dispatch.apply(ex);
        } catch (ServiceException e) {
            return ErrorReplies.of(e, ex.activityId());
        } catch (Throwable t) {
            // the stack trace is logged, never sent; the message names only the activity id
            LOG.error("Unexpected error in {} request, activity id {}", ex.method(), ex.activityId(), t);
            // even after an Error the client gets an answer; a silent connection would hang it until its timeout
            return ErrorReplies.internal(ex.activityId());
        }
    }

    /** The reply as a Netty response, with the headers every response carries. */
    FullHttpResponse finish(Reply reply, String activityId, boolean keepAlive) {
        HttpHeaders h = reply.headers();
        h.set(Hdr.ACTIVITY_ID, activityId);
        if (!h.contains(Hdr.REQUEST_CHARGE)) {
            // every response carries a charge; the routes price what reached the engine, the rest cost nothing
            h.set(Hdr.REQUEST_CHARGE, "0");
        }
        h.set(HttpHeaderNames.DATE, httpDate());
        h.set(Hdr.GATEWAY_VERSION, GATEWAY_VERSION);
        h.set(HttpHeaderNames.CONTENT_LENGTH, reply.content().readableBytes());
        if (!keepAlive) {
            h.set(HttpHeaderNames.CONNECTION, "close");
        }
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(reply.status()),
                reply.content(), h, io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE);
    }

    /** The {@code Date} header: formatted once a second, not once a response (any handler's clock may refresh it). */
    private String httpDate() {
        long second = Math.floorDiv(clock.millis(), 1000);
        HttpDate d = lastDate;
        if (d == null || d.second != second) {
            d = new HttpDate(second, HTTP_DATE.format(Instant.ofEpochSecond(second)));
            lastDate = d;
        }
        return d.text;
    }

    private record HttpDate(long second, String text) {
    }

    /** The client's activity id when it is 8 to 64 hex digits and dashes (so it is safe to echo and log), else new. */
    static String activityId(HttpHeaders headers) {
        String given = headers.get(Hdr.ACTIVITY_ID);
        return given != null && isActivityId(given) ? given : newActivityId();
    }

    /**
     * A random (version 4) UUID from the thread's generator: an activity id correlates a request with its logs, it
     * guards nothing, and {@code UUID.randomUUID()}'s SecureRandom took a shared lock and ~2% of a write's CPU.
     */
    static String newActivityId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long high = (r.nextLong() & ~0xF000L) | 0x4000L;
        long low = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    private static boolean isActivityId(String s) {
        int n = s.length();
        if (n < 8 || n > 64) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            if (!busy) {
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        FullHttpRequest r;
        while ((r = waiting.poll()) != null) {
            r.release();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // connection-level trouble (reset by peer, TLS alerts): nothing to answer
        LOG.debug("Closing a connection after: {}", cause.toString());
        ctx.close();
    }

    /** An error reply for the pipeline's own refusals (413, bad requests) outside a dispatch. */
    FullHttpResponse refusal(int status, String message, HttpHeaders requestHeaders, boolean keepAlive) {
        String activityId = activityId(requestHeaders);
        return finish(ErrorReplies.of(status, 0, message, 0, activityId), activityId, keepAlive);
    }
}
