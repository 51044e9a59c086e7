package dev.partita.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import java.io.Serial;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Request transfer codings as a strict HTTP/1.1 server reads them (RFC 9112 §6.1): only {@code chunked} is
 * understood. A request with any other coding ({@code gzip, chunked}, which the codec alone would read as plain chunked)
 * is answered 501 Not Implemented; one whose codings do not end in exactly one {@code chunked} has a body of unknown
 * length, 400. The request is marked failed (the aggregator then drops its body) and the {@link GatewayHandler}
 * answers it in turn, after any pipelined request before it, and closes the connection: what follows cannot be told
 * apart from the next request.
 */
final class TransferCodings extends ChannelInboundHandlerAdapter {
    /** Why a request's transfer codings were refused: the status and the message for the service's error body. */
    static final class Refused extends DecoderException {
        @Serial
        private static final long serialVersionUID = 1L;
        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // the aggregator emits a failed request at once, drops the rest of its body, and the gateway answers it
        if (msg instanceof HttpRequest req && req.decoderResult().isSuccess()) {
            Refused refused = check(req.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING));
            if (refused != null) {
                req.setDecoderResult(DecoderResult.failure(refused));
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Null when the codings are absent or exactly {@code chunked}; otherwise why not. */
    static Refused check(List<String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        List<String> codings = new ArrayList<>();
        for (String header : headers) {
            for (String part : header.split(",", -1)) {
                String coding = part.trim();
                int params = coding.indexOf(';');
                codings.add((params < 0 ? coding : coding.substring(0, params).trim()).toLowerCase(Locale.ROOT));
            }
        }
        // the body's length is known only when chunked comes last, once
        if (!codings.get(codings.size() - 1).equals("chunked") || codings.indexOf("chunked") != codings.size() - 1) {
            return new Refused(400, "The request's Transfer-Encoding must end with chunked, applied once; the "
                    + "body's length cannot be determined.");
        }
        for (String coding : codings) {
            if (!coding.equals("chunked")) {
                return new Refused(501, "The transfer coding '" + printable(coding) + "' is not implemented; send "
                        + "the body with Content-Length or with Transfer-Encoding: chunked alone.");
            }
        }
        return null;
    }

    /** The coding as written, if it is a short token; otherwise not echoed. */
    private static String printable(String coding) {
        return coding.length() <= 40 && coding.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f && ch != '\'')
                ? coding : "(unprintable)";
    }
}
