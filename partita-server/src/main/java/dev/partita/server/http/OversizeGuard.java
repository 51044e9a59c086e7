package dev.partita.server.http;

import dev.partita.core.error.ServiceException;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Aggregates a request's body up to a limit. A request whose {@code Content-Length} is over the limit is refused with
 * 413 and the service's JSON error as soon as its headers arrive, before any of the body is buffered; the rest of
 * its body is then read and dropped so the connection can be reused (or the connection is closed when it cannot be).
 */
final class OversizeGuard extends HttpObjectAggregator {
    private final GatewayHandler replies;

    OversizeGuard(int maxContentLength, GatewayHandler replies) {
        super(maxContentLength);
        this.replies = replies;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (!(oversized instanceof HttpRequest request)) {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        String message = ServiceException.tooLarge().getMessage();
        // a body already partly aggregated cannot be skipped cleanly; neither can one without keep-alive
        boolean close = oversized instanceof FullHttpMessage
                || (!HttpUtil.is100ContinueExpected(request) && !HttpUtil.isKeepAlive(request));
        var response = replies.refusal(413, message, request.headers(), !close);
        if (close) {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }
    }
}
