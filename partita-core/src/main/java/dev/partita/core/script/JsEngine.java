package dev.partita.core.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.io.IOAccess;

/**
 * The GraalJS runtime: one shared {@link Engine} (its code caches serve every context) and a pool of sandboxed
 * contexts with the server-side API already evaluated, so a warm execution pays for its own work only. A context
 * reaches nothing of the host: no Java classes or objects, no files or sockets, no threads, processes, environment,
 * native code or other languages; the one way out is the engine's bridge for collection operations.
 */
final class JsEngine implements AutoCloseable {
    private static final int MAX_IDLE = 16;

    private final Engine engine;
    private final Source serverApi;
    private final Deque<JsContext> idle = new ConcurrentLinkedDeque<>();
    private final Watchdog watchdog = new Watchdog();

    JsEngine() {
        this.engine = Engine.newBuilder("js")
                .option("engine.WarnInterpreterOnly", "false")
                .out(OutputStream.nullOutputStream())
                .err(OutputStream.nullOutputStream())
                .build();
        this.serverApi = Source.newBuilder("js", resource("server-api.js"), "server-api.js").buildLiteral();
    }

    Watchdog watchdog() {
        return watchdog;
    }

    /** A context for one execution; give it back with {@link #release}. */
    JsContext lease() {
        JsContext c = idle.pollFirst();
        return c != null ? c : create();
    }

    /** Returns a context to the pool, cleaned; a cancelled one (or one that fails to clean) is closed instead. */
    void release(JsContext c) {
        if (!c.broken()) {
            try {
                c.reset();
                if (idle.size() < MAX_IDLE) {
                    idle.offerFirst(c);
                    return;
                }
            } catch (PolyglotException e) {
                // fall through: a context that cannot be cleaned is not reused
            }
        }
        c.close();
    }

    private JsContext create() {
        Context context = Context.newBuilder("js")
                .engine(engine)
                .allowHostAccess(HostAccess.NONE)
                .allowHostClassLookup(name -> false)
                .allowHostClassLoading(false)
                .allowIO(IOAccess.NONE)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowNativeAccess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .option("js.load", "false")
                .option("js.print", "false")
                .option("js.console", "false")
                .build();
        return new JsContext(context, serverApi);
    }

    @Override
    public void close() {
        watchdog.close();
        JsContext c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
        engine.close(true);
    }

    private static String resource(String name) {
        try (InputStream in = JsEngine.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("The script runtime's " + name + " is missing from the classpath.");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
