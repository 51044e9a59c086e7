package dev.partita.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The ceiling: the least an HTTP endpoint can do for the SDK in gateway mode. It answers the account read, the
 * database and container reads and the partition-key-range feed (one range {@code ""..."FF"}, 304 to an incremental
 * re-read) well enough for the SDK to start, and EVERY item request with one fixed ~1 KB stored document (etag,
 * {@code x-ms-session-token: 0:-1#1}), written on the event loop, from a buffer prepared once. Queries get a page with
 * that one document. No store, no auth, no thread hop: what the client achieves against it is the most it can achieve
 * against any server on this machine.
 *
 * <p>With {@code offload}, each request is answered the way Partita's gateway does it: the response is built on a new
 * virtual thread and written from there (one hand-off event loop → virtual thread, one back), so the difference
 * between the two ceilings is the price of that design alone.
 *
 * <p>Headers mirror Partita's responses (same names, similar sizes), so the client parses the same amount.
 */
final class CeilingServer implements AutoCloseable {
    static final String DB_RID = "AAAAAQ==";
    static final String COLL_RID = "AAAAAYAAAAE=";
    private static final String RANGES_ETAG = "\"1\"";
    private static final String ITEM_ETAG = "\"80000001-0000-0000-0000-000000000001\"";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.\\-:\\[\\]]{1,255}");
    private static final java.time.Clock CLOCK = java.time.Clock.systemUTC();
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private final EventLoopGroup group;
    private final ExecutorService executor;
    private final Channel listener;
    private final int port;

    private CeilingServer(EventLoopGroup group, ExecutorService executor, Channel listener) {
        this.group = group;
        this.executor = executor;
        this.listener = listener;
        this.port = ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Listens on 127.0.0.1 ({@code port} 0: a free one) with the given number of event loops. */
    static CeilingServer start(int port, int threads, byte[] document, boolean offload) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("ceiling-io"),
                NioIoHandler.newFactory());
        ExecutorService executor = offload
                ? Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("ceiling-request-", 0).factory())
                : null;
        ByteBuf doc = Unpooled.unreleasableBuffer(Unpooled.directBuffer(document.length).writeBytes(document));
        Channel ch = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel c) {
                        c.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                new HttpObjectAggregator(4 * 1024 * 1024), new Handler(doc, executor));
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
        return new CeilingServer(group, executor, ch);
    }

    int port() {
        return port;
    }

    String endpoint() {
        return "http://127.0.0.1:" + port + "/";
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (executor != null) {
            executor.shutdown();
        }
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final ByteBuf document;
        private final Executor executor;
        private long dateSecond = -1;
        private String date;

        Handler(ByteBuf document, Executor executor) {
            this.document = document;
            this.executor = executor;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (executor == null) {
                answer(ctx, req);
                return;
            }
            req.retain();
            executor.execute(() -> {
                try {
                    answer(ctx, req);
                } finally {
                    req.release();
                }
            });
        }

        private void answer(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = req.uri();
            int q = path.indexOf('?');
            if (q >= 0) {
                path = path.substring(0, q);
            }
            String[] seg = path.replaceAll("^/+|/+$", "").split("/");
            HttpHeaders in = req.headers();
            FullHttpResponse resp;
            if (path.equals("/") || path.isEmpty()) {
                resp = json(HttpResponseStatus.OK, account(in.get(HttpHeaderNames.HOST)));
            } else if (seg.length >= 5 && seg[4].equals("docs")) {
                resp = item(req, seg.length == 5 && isQuery(in));
            } else if (seg.length == 5 && seg[4].equals("pkranges")) {
                resp = ranges(in);
            } else if (seg.length == 4 && seg[2].equals("colls")) {
                resp = json(HttpResponseStatus.OK, container(seg[3]));
                resp.headers().set("etag", "\"00000000-0000-0000-0000-0000000f4242\"")
                        .set("x-ms-alt-content-path", "dbs/" + seg[1]).set("x-ms-content-path", COLL_RID);
            } else if (seg.length == 2 && seg[0].equals("dbs")) {
                resp = json(HttpResponseStatus.OK, "{\"id\":\"" + seg[1] + "\",\"_rid\":\"" + DB_RID
                        + "\",\"_self\":\"dbs/" + DB_RID + "/\",\"_etag\":\"\\\"00000000-0000-0000-0000-0000000f4241"
                        + "\\\"\",\"_colls\":\"colls/\",\"_users\":\"users/\",\"_ts\":1796061496}");
            } else {
                resp = json(HttpResponseStatus.NOT_FOUND, "{\"code\":\"NotFound\",\"message\":\"The ceiling server"
                        + " answers the account, database, container, pkranges and item requests only.\"}");
            }
            HttpHeaders h = resp.headers();
            String activity = in.get("x-ms-activity-id");
            h.set("x-ms-activity-id", activity != null ? activity : UUID.randomUUID().toString());
            if (!h.contains("x-ms-request-charge")) {
                h.set("x-ms-request-charge", "1.0");
            }
            h.set(HttpHeaderNames.DATE, date());
            h.set("x-ms-gatewayversion", "version=2.14.0");
            h.set(HttpHeaderNames.CONTENT_LENGTH, resp.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (keepAlive) {
                ctx.writeAndFlush(resp);
            } else {
                ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private FullHttpResponse item(FullHttpRequest req, boolean query) {
            HttpMethod m = req.method();
            FullHttpResponse r;
            if (query) {
                byte[] head = ("{\"_rid\":\"" + COLL_RID + "\",\"Documents\":[").getBytes(StandardCharsets.UTF_8);
                byte[] tail = "],\"_count\":1}".getBytes(StandardCharsets.UTF_8);
                ByteBuf body = Unpooled.wrappedBuffer(Unpooled.wrappedBuffer(head), document.duplicate(),
                        Unpooled.wrappedBuffer(tail));
                r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
                r.headers().set("x-ms-item-count", "1");
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            } else {
                boolean write = !m.equals(HttpMethod.GET);
                String prefer = req.headers().get("Prefer");
                boolean minimal = write && prefer != null && prefer.contains("return=minimal");
                HttpResponseStatus status = m.equals(HttpMethod.POST) ? HttpResponseStatus.CREATED
                        : m.equals(HttpMethod.DELETE) ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.OK;
                boolean body = !minimal && !m.equals(HttpMethod.DELETE);
                r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                        body ? document.duplicate() : Unpooled.EMPTY_BUFFER);
                if (body) {
                    r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                }
                r.headers().set("etag", ITEM_ETAG);
                r.headers().set("x-ms-request-charge", write ? "5.0" : "1.0");
            }
            HttpHeaders h = r.headers();
            h.set("x-ms-session-token", "0:-1#1");
            h.set("x-ms-documentdb-partitionkeyrangeid", "0");
            h.set("x-ms-alt-content-path", "dbs/bench/colls/items");
            h.set("x-ms-content-path", COLL_RID);
            return r;
        }

        private static FullHttpResponse ranges(HttpHeaders in) {
            String aim = in.get("A-IM");
            FullHttpResponse r;
            if (aim != null && aim.toLowerCase(Locale.ROOT).contains("incremental")
                    && RANGES_ETAG.equals(in.get(HttpHeaderNames.IF_NONE_MATCH))) {
                r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED,
                        Unpooled.EMPTY_BUFFER);
            } else {
                r = json(HttpResponseStatus.OK, "{\"_rid\":\"" + COLL_RID + "\",\"PartitionKeyRanges\":[{\"_rid\":"
                        + "\"AAAAAYAAAAEAAAAAAAABUA==\",\"id\":\"0\",\"_etag\":\"\\\"80000001-0000-0000-0000-"
                        + "000000000001\\\"\",\"minInclusive\":\"\",\"maxExclusive\":\"FF\",\"ridPrefix\":0,"
                        + "\"_self\":\"dbs/" + DB_RID + "/colls/" + COLL_RID + "/pkranges/AAAAAYAAAAEAAAAAAAABUA==/\","
                        + "\"throughputFraction\":1.0,\"status\":\"online\",\"parents\":[],\"_ts\":1796061496,"
                        + "\"lsn\":0}],\"_count\":1}");
                r.headers().set("x-ms-item-count", "1");
            }
            r.headers().set("etag", RANGES_ETAG).set("x-ms-alt-content-path", "dbs/bench/colls/items")
                    .set("x-ms-content-path", COLL_RID);
            return r;
        }

        private static boolean isQuery(HttpHeaders in) {
            String q = in.get("x-ms-documentdb-isquery");
            String ct = in.get(HttpHeaderNames.CONTENT_TYPE);
            return "true".equalsIgnoreCase(q) || (ct != null && ct.startsWith("application/query+json"));
        }

        private static String account(String host) {
            if (host == null || !HOST.matcher(host).matches()) {
                host = "127.0.0.1";
            }
            String loc = "[{\"name\":\"South Central US\",\"databaseAccountEndpoint\":\"http://" + host + "/\"}]";
            return "{\"_self\":\"\",\"id\":\"ceiling\",\"_rid\":\"ceiling.documents.azure.com\",\"media\":\"//media/\","
                    + "\"addresses\":\"//addresses/\",\"_dbs\":\"//dbs/\",\"writableLocations\":" + loc
                    + ",\"readableLocations\":" + loc + ",\"enableMultipleWriteLocations\":false,"
                    + "\"userReplicationPolicy\":{\"asyncReplication\":false,\"minReplicaSetSize\":1,"
                    + "\"maxReplicasetSize\":4},\"userConsistencyPolicy\":{\"defaultConsistencyLevel\":\"Session\"},"
                    + "\"systemReplicationPolicy\":{\"minReplicaSetSize\":1,\"maxReplicasetSize\":4},"
                    + "\"readPolicy\":{\"primaryReadCoefficient\":1,\"secondaryReadCoefficient\":1},"
                    + "\"queryEngineConfiguration\":\"{\\\"maxSqlQueryInputLength\\\":262144,"
                    + "\\\"maxJoinsPerSqlQuery\\\":5,\\\"maxLogicalAndPerSqlQuery\\\":500,"
                    + "\\\"maxLogicalOrPerSqlQuery\\\":500,\\\"maxUdfRefPerSqlQuery\\\":10,"
                    + "\\\"maxInExpressionItemsCount\\\":16000,\\\"queryMaxInMemorySortDocumentCount\\\":500,"
                    + "\\\"maxQueryRequestTimeoutFraction\\\":0.9,\\\"sqlAllowNonFiniteNumbers\\\":false,"
                    + "\\\"sqlAllowAggregateFunctions\\\":true,\\\"sqlAllowSubQuery\\\":true,"
                    + "\\\"sqlAllowScalarSubQuery\\\":true,\\\"allowNewKeywords\\\":true,\\\"sqlAllowLike\\\":true,"
                    + "\\\"sqlAllowGroupByClause\\\":true,\\\"maxSpatialQueryCells\\\":12,"
                    + "\\\"spatialMaxGeometryPointCount\\\":256,\\\"sqlDisableOptimizationFlags\\\":0,"
                    + "\\\"sqlAllowTop\\\":true,\\\"enableSpatialIndexing\\\":true}\"}";
        }

        private static String container(String id) {
            return "{\"id\":\"" + id + "\",\"partitionKey\":{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2},"
                    + "\"indexingPolicy\":{\"indexingMode\":\"consistent\",\"automatic\":true,\"includedPaths\":"
                    + "[{\"path\":\"/*\"}],\"excludedPaths\":[{\"path\":\"/\\\"_etag\\\"/?\"}]},"
                    + "\"uniqueKeyPolicy\":{\"uniqueKeys\":[]},\"conflictResolutionPolicy\":{\"mode\":"
                    + "\"LastWriterWins\",\"conflictResolutionPath\":\"/_ts\",\"conflictResolutionProcedure\":\"\"},"
                    + "\"geospatialConfig\":{\"type\":\"Geography\"},\"_rid\":\"" + COLL_RID + "\",\"_ts\":1796061496,"
                    + "\"_self\":\"dbs/" + DB_RID + "/colls/" + COLL_RID + "/\",\"_etag\":"
                    + "\"\\\"00000000-0000-0000-0000-0000000f4242\\\"\",\"_docs\":\"docs/\",\"_sprocs\":\"sprocs/\","
                    + "\"_triggers\":\"triggers/\",\"_udfs\":\"udfs/\",\"_conflicts\":\"conflicts/\"}";
        }

        private static FullHttpResponse json(HttpResponseStatus status, String body) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            return r;
        }

        /** The Date header, formatted once a second per connection. */
        private String date() {
            long now = CLOCK.millis() / 1000;
            if (now != dateSecond) {
                dateSecond = now;
                date = HTTP_DATE.format(java.time.Instant.ofEpochSecond(now));
            }
            return date;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
