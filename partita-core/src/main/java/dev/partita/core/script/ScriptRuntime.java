package dev.partita.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.sql.EvalContext;
import dev.partita.sql.functions.UserFunctions;
import java.time.Clock;
import java.util.Map;
import org.graalvm.polyglot.PolyglotException;

/**
 * The engine's server-side JavaScript runtime, loaded on first use (the GraalJS engine takes a second to start,
 * which a server that never runs a script should not pay). A {@link Session} holds one pooled context for one
 * execution — a stored procedure with its operations, a write's triggers, or a query page's user-defined functions —
 * under one time and memory bound ({@link Limits#maxRequestExecution()}, {@link Limits#maxScriptAllocatedBytes()}).
 */
public final class ScriptRuntime implements AutoCloseable {
    private final Limits limits;
    private volatile JsEngine js;

    public ScriptRuntime(Limits limits) {
        this.limits = limits;
    }

    /** Starts an execution; close the session when it is done (the context goes back to the pool). */
    public Session open() {
        return new Session(js());
    }

    private JsEngine js() {
        JsEngine e = js;
        if (e == null) {
            synchronized (this) {
                e = js;
                if (e == null) {
                    e = new JsEngine();
                    js = e;
                }
            }
        }
        return e;
    }

    @Override
    public synchronized void close() {
        if (js != null) {
            js.close();
            js = null;
        }
    }

    /** What a stored procedure or trigger left: its response body, a pre-trigger's new request body, its log. */
    public record Output(String body, String request, String log) {
    }

    /** One execution in one context. Not thread-safe: the thread that opened it uses it. */
    public final class Session implements AutoCloseable {
        private final JsEngine engine;
        private final JsContext context;
        private Watchdog.Watch watch;

        private Session(JsEngine engine) {
            this.engine = engine;
            this.context = engine.lease();
        }

        /**
         * The bound starts with the first script run, not at the lease, so time spent waiting for the container's
         * writer is not the script's. Half the heap at most: what a script allocates is not all garbage.
         */
        private void watched() {
            if (watch == null) {
                long heapShare = Runtime.getRuntime().maxMemory() / 2;
                watch = engine.watchdog().watch(context, limits.maxRequestExecution(),
                        Math.min(limits.maxScriptAllocatedBytes(), heapShare));
            }
        }

        /**
         * Runs a stored procedure ({@code kind} "sproc") or a trigger ("pre", "post"); its collection operations go
         * to {@code host}. A script that throws, is stopped or does not compile answers a {@link ServiceException}.
         */
        public Output run(String kind, ScriptResource script, String argsJson, String requestJson,
                String responseJson, String selfLink, String altLink, String operation, boolean logging,
                ScriptExecution host) {
            watched();
            String out = guarded(script, () -> context.run(kind, script.body(), argsJson, requestJson, responseJson,
                    selfLink, altLink, operation, logging, limits.maxResponseBytes(), host));
            JsonNode o = Json.parse(out, "script result");
            return new Output(text(o, "body"), text(o, "request"), o.path("log").asText(""));
        }

        /** {@code clock} with the user-defined functions {@code bodies} (name → JavaScript) run in this session. */
        public EvalContext evalContext(Clock clock, Map<String, String> bodies) {
            return EvalContext.of(clock).withUserFunctions(functions(bodies));
        }

        UserFunctions functions(Map<String, String> bodies) {
            watched();
            return (name, args) -> {
                String body = bodies.get(name);
                if (body == null) {
                    throw ServiceException.badRequest("The user-defined function 'udf." + name + "' does not exist"
                            + " in the container.");
                }
                return guarded(null, () -> context.callUdf(body, args));
            };
        }

        private <T> T guarded(ScriptResource script, java.util.function.Supplier<T> execution) {
            try {
                return execution.get();
            } catch (PolyglotException e) {
                throw failure(script, e);
            } catch (IllegalArgumentException e) {
                throw ServiceException.badRequest("Encountered exception while compiling Javascript. Exception = "
                        + e.getMessage());
            }
        }

        private ServiceException failure(ScriptResource script, PolyglotException e) {
            Watchdog.Stop stopped = watch == null ? null : watch.stopped();
            String what = script == null ? "The user-defined function" : "The " + script.kind().noun() + " '"
                    + script.id() + "'";
            if (stopped == Watchdog.Stop.TIMEOUT || e.isCancelled() && stopped == null) {
                return new ServiceException(408, 0, what + " ran longer than its time limit of "
                        + limits.maxRequestExecution().toMillis() + " ms and was stopped; none of its writes"
                        + " were applied.");
            }
            if (stopped == Watchdog.Stop.MEMORY) {
                return ServiceException.badRequest(what + " allocated more memory than its limit and was stopped;"
                        + " none of its writes were applied.");
            }
            if (e.isHostException() && e.asHostException() instanceof ServiceException se) {
                return se;
            }
            if (e.isSyntaxError()) {
                return ServiceException.badRequest("Encountered exception while compiling Javascript. Exception = "
                        + e.getMessage());
            }
            if (e.isGuestException() && e.getGuestObject() != null) {
                int status = context.errorStatus(e.getGuestObject());
                if (status >= 400 && status < 600 && status != 500) {
                    return new ServiceException(status, 0, e.getMessage().replaceFirst("^Error: ", ""));
                }
            }
            if (e.isInternalError() || e.isResourceExhausted()) {
                context.markBroken();
            }
            return ServiceException.badRequest("Encountered exception while executing function. Exception = "
                    + e.getMessage());
        }

        @Override
        public void close() {
            if (watch != null) {
                watch.close();
            }
            engine.release(context);
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
