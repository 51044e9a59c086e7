package dev.partita.server;

import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.server.auth.Authenticator;
import dev.partita.server.auth.MasterKeySignature;
import dev.partita.server.auth.ResourceTokens;
import dev.partita.server.explorer.ExplorerDispatcher;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.HttpPipeline;
import dev.partita.server.http.InFlight;
import dev.partita.server.metrics.Metrics;
import dev.partita.server.route.RouteContext;
import dev.partita.server.route.Router;
import dev.partita.server.tls.Certificates;
import dev.partita.server.tls.TlsContexts;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cosmos DB gateway over an {@link Engine}: HTTP/1.1 (and HTTPS with a self-signed certificate) speaking the REST
 * protocol the official SDKs use in gateway mode. Engine work runs on virtual threads; Netty's event loops never
 * block (they answer only what cannot wait: in-memory point reads, see {@link dev.partita.server.http.Dispatcher}). Closing the server leaves the engine open.
 *
 * <pre>
 * try (PartitaServer server = PartitaServer.start(engine, ServerOptions.defaults().withPort(0))) {
 *     new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY).gatewayMode()...
 * }
 * </pre>
 */
public final class PartitaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitaServer.class);
    /** Connections idle this long are closed; longer than the SDK's own pool idle timeout (60 s). */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);
    /** Request bodies may exceed the item limit by this much, so the engine (not the pipeline) reports near misses. */
    static final int BODY_SLACK_BYTES = 64 * 1024;
    /** How long {@link #close()} waits for requests in flight. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService executor;
    private final ChannelGroup channels;
    private final InFlight inFlight;
    private final Channel listener;
    private final int port;
    private final String endpoint;
    private final Path certificatePem;
    private volatile boolean closed;

    private PartitaServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService executor, ChannelGroup channels,
            InFlight inFlight, Channel listener, String host, boolean https, Path certificatePem) {
        this.boss = boss;
        this.workers = workers;
        this.executor = executor;
        this.channels = channels;
        this.inFlight = inFlight;
        this.listener = listener;
        this.port = ((InetSocketAddress) listener.localAddress()).getPort();
        this.endpoint = (https ? "https://" : "http://") + hostForUrl(host) + ":" + port + "/";
        this.certificatePem = certificatePem;
    }

    /**
     * Runs the one-time set-up every server start pays before its first answer — Netty's platform probing, selector,
     * buffer pool and HTTP codec, the first virtual thread, the JSON mapper and its writer, the signature's digest — so
     * that a caller with other work to do first (opening a durable store) can run it on another core meanwhile.
     * Optional and idempotent: {@link #start} works without it.
     */
    public static void prepare() {
        NioIoHandler.newFactory();
        // Netty asks each handler's class for @Sharable as the handler is added; the first such question parses the
        // annotations and spins proxy classes for them and their meta-annotations, on the thread that binds
        HttpPipeline.class.isAnnotationPresent(ChannelHandler.Sharable.class);
        new HttpServerCodec().isSharable();
        ByteBufAllocator.DEFAULT.buffer(1).release();
        try {
            // the first virtual thread starts the scheduler's carriers and spins its continuation's method handles;
            // named with a counter like the requests' threads, it also links the counter's VarHandle (six more).
            // First after Netty's own: every request runs on a virtual thread, an unsigned one needs no HMAC
            Thread.ofVirtual().name("partita-prepare-", 0).start(() -> { }).join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Json.bytes(Json.object().put("id", "prepare"));
        MasterKeySignature.sign(Keys.EMULATOR_PRIMARY, "prepare");
    }

    /** Binds and returns once the server is listening. */
    public static PartitaServer start(Engine engine, ServerOptions options) {
        return start(CompletableFuture.completedFuture(engine), engine.clock(), engine.limits(), options,
                IDLE_TIMEOUT);
    }

    /**
     * Binds and returns once the server is listening, while {@code engine} may still be opening (its store on another
     * thread): a request that arrives before it is open waits for it on its virtual thread, so the port's binding and
     * the store's opening overlap at start-up. A request when the engine failed to open is a 503.
     */
    public static PartitaServer start(CompletableFuture<Engine> engine, Clock clock, Limits limits,
            ServerOptions options) {
        return start(engine, clock, limits, options, IDLE_TIMEOUT);
    }

    /** As {@link #start(Engine, ServerOptions)} with another idle-connection timeout (tests). */
    static PartitaServer start(Engine engine, ServerOptions options, Duration idleTimeout) {
        return start(CompletableFuture.completedFuture(engine), engine.clock(), engine.limits(), options, idleTimeout);
    }

    private static PartitaServer start(CompletableFuture<Engine> engine, Clock clock, Limits limits,
            ServerOptions options, Duration idleTimeout) {
        SslContext ssl = null;
        Path pem = null;
        if (options.https()) {
            try {
                Path dir = options.certificateDir() != null ? options.certificateDir()
                        : Files.createTempDirectory("partita-tls");
                Certificates.Material m = Certificates.loadOrCreate(dir, clock);
                ssl = TlsContexts.server(m.key(), m.certificate());
                pem = m.pem().toAbsolutePath();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not prepare the TLS certificate: " + e.getMessage(), e);
            }
        }
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        // one loop per core (Netty's default is two): the loops share the cores with the virtual threads' carriers
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                NioIoHandler.newFactory());
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("partita-request-", 0).factory());
        ChannelGroup channels = new DefaultChannelGroup("partita-connections", GlobalEventExecutor.INSTANCE);
        InFlight inFlight = new InFlight();
        try {
            // the host:port advertised to clients without a Host header is known only after binding
            AtomicReference<String> advertised = new AtomicReference<>(options.host() + ":" + options.port());
            Dispatcher dispatcher = new OpeningDispatcher(engine.thenApply(e -> dispatcher(e, options, advertised)));
            Channel ch = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childHandler(new HttpPipeline(ssl, dispatcher, executor, clock, inFlight,
                            limits.maxRequestBytes() + BODY_SLACK_BYTES, idleTimeout, channels))
                    .bind(bindAddress(options.host(), options.port())).sync().channel();
            PartitaServer server = new PartitaServer(boss, workers, executor, channels, inFlight, ch, options.host(),
                    options.https(), pem);
            advertised.set(hostForUrl(options.host()) + ":" + server.port);
            LOG.info("Partita is listening on {}{}; the explorer is at {}, metrics at {}metrics", server.endpoint,
                    options.noAuth() ? " (authorization is OFF)" : "", server.explorerUrl(), server.endpoint);
            if (pem != null) {
                LOG.info("TLS certificate: {} — to trust it in a JVM: keytool -importcert -noprompt -alias partita"
                        + " -file {} -cacerts -storepass changeit", pem, pem);
            }
            return server;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdown(boss, workers, executor);
            throw new IllegalStateException("Interrupted while binding", e);
        } catch (Exception e) {
            // Netty's sync() rethrows the bind's checked exception (a port in use) as it is
            shutdown(boss, workers, executor);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("Could not listen on " + options.host() + ":" + options.port() + ": "
                        + io.getMessage(), io);
            }
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
    }

    public int port() {
        return port;
    }

    /** The endpoint to give an SDK, e.g. {@code https://localhost:8081/}. */
    public String endpoint() {
        return endpoint;
    }

    /** The data explorer's page, e.g. {@code https://localhost:8081/_explorer/}. */
    public String explorerUrl() {
        return endpoint + ExplorerDispatcher.PATH.substring(1);
    }

    /** The exported certificate ({@code partita-cert.pem}), or null when serving plain HTTP. */
    public Path certificatePem() {
        return certificatePem;
    }

    /** Stops accepting, lets requests in flight finish (up to 10 s), closes connections and event loops. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        listener.close().syncUninterruptibly();
        try {
            if (!inFlight.awaitIdle(DRAIN_TIMEOUT.toMillis())) {
                LOG.warn("Closing with requests still in flight after {} s", DRAIN_TIMEOUT.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        shutdown(boss, workers, executor);
    }

    /** The API's router behind the explorer's page and {@code /metrics}; only API requests are metered. */
    private static Dispatcher dispatcher(Engine engine, ServerOptions options, AtomicReference<String> advertised) {
        ResourceTokens tokens = new ResourceTokens(options.keys().primary());
        Authenticator auth = new Authenticator(options.keys(), options.noAuth(), engine.clock(),
                engine.limits().authClockSkew(), engine.users(), tokens);
        Router router = new Router(new RouteContext(engine, tokens), auth, advertised::get);
        return new ExplorerDispatcher(engine, auth, new Metrics(engine, router));
    }

    private static void shutdown(EventLoopGroup boss, EventLoopGroup workers, ExecutorService executor) {
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        executor.shutdown();
        boss.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /**
     * Where to bind: {@code localhost} is the loopback address, taken without a name look-up. The JDK's first look-up
     * loads its resolver provider with a {@link java.util.ServiceLoader}, and that search opens every jar on the class
     * path (84 for {@code partita serve}): ~0.1 s of the start on the thread that binds.
     */
    static InetSocketAddress bindAddress(String host, int port) {
        return host.equalsIgnoreCase("localhost") ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port)
                : new InetSocketAddress(host, port);
    }

    private static String hostForUrl(String host) {
        if (host.equals("0.0.0.0") || host.equals("::") || host.isEmpty()) {
            return "localhost";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
