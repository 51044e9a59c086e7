package dev.partita.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.core.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * One pooled JavaScript context with the server-side API evaluated in it, and the functions it has compiled (by
 * body text, so a replaced script compiles anew). Used by one thread at a time: the pool hands it out.
 */
final class JsContext {
    private static final int COMPILED = 256;

    private final Context context;
    private final Value api;
    private final Value start;
    private final Value step;
    private final Value finish;
    private final Value end;
    private final Value udf;
    private final Value stringify;
    private final Value undefined;
    private final Map<String, Value> compiled = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Value> eldest) {
            return size() > COMPILED;
        }
    };
    private ScriptHost host;
    private boolean broken;

    JsContext(Context context, Source serverApi) {
        this.context = context;
        ProxyExecutable bridge = args -> {
            ScriptHost h = host;
            if (h == null) {
                return "{\"accepted\":false}";
            }
            return h.call(string(args, 0), string(args, 1), string(args, 2), string(args, 3));
        };
        this.api = context.eval(serverApi).execute(bridge);
        this.start = api.getMember("start");
        this.step = api.getMember("step");
        this.finish = api.getMember("finish");
        this.end = api.getMember("end");
        this.udf = api.getMember("udf");
        this.stringify = context.eval("js", "JSON.stringify");
        this.undefined = context.eval("js", "undefined");
    }

    Context context() {
        return context;
    }

    /** The compiled function of a script body; a body that is not a function is a 400 at the caller. */
    Value function(String body) {
        Value f = compiled.get(body);
        if (f == null) {
            f = context.eval(Source.newBuilder("js", "(" + body + "\n)", "script.js").cached(true)
                    .buildLiteral());
            if (!f.canExecute()) {
                throw new IllegalArgumentException("The script body is not a JavaScript function.");
            }
            compiled.put(body, f);
        }
        return f;
    }

    /**
     * Runs a stored procedure ({@code kind} "sproc") or a trigger ("pre", "post") with its collection operations going
     * to {@code host}; answers the API's {@code {body, request, log}} as JSON text.
     */
    String run(String kind, String body, String argsJson, String requestJson, String responseJson, String selfLink,
            String altLink, String operation, boolean logging, int maxResponseBytes, ScriptHost host) {
        ScriptHost outer = this.host;
        this.host = host;
        boolean finished = false;
        try {
            start.execute(kind, function(body), argsJson, requestJson, responseJson, selfLink, altLink, operation,
                    logging, maxResponseBytes);
            // one callback per call: the promise jobs each one leaves run as the call returns (see server-api.js)
            while (step.execute().asBoolean()) {
                // next callback
            }
            String out = finish.execute().asString();
            finished = true;
            return out;
        } finally {
            this.host = outer;
            if (!finished && !broken) { // finish ends the execution itself; a failed one is ended here
                try {
                    end.execute();
                } catch (PolyglotException | IllegalStateException e) {
                    // a context stopped meanwhile: the pool closes it instead of reusing it
                }
            }
        }
    }

    /** Calls a user-defined function: primitives cross as they are, objects and arrays as JSON. */
    JsonNode callUdf(String body, JsonNode[] args) {
        Value fn = function(body);
        Value result;
        if (allScalar(args)) {
            Object[] values = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = scalar(args[i]);
            }
            result = fn.execute(values);
            if (result.isNumber() || result.isString() || result.isBoolean() || result.isNull()) {
                return fromScalar(result);
            }
            if (!result.hasMembers() && !result.hasArrayElements()) {
                return null; // undefined, or a function: no JSON value
            }
            return Json.parse(stringify.execute(result).asString(), "function result");
        }
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < args.length; i++) {
            json.append(i == 0 ? "" : ",").append(args[i] == null ? "null" : args[i].toString());
        }
        result = udf.execute(fn, json.append(']').toString());
        return result.isString() ? Json.parse(result.asString(), "function result") : null;
    }

    /** Whether the last execution left the context unusable (it was cancelled). */
    boolean broken() {
        return broken;
    }

    void markBroken() {
        broken = true;
    }

    /** Removes what a script left on the global object. */
    void reset() {
        api.invokeMember("reset");
    }

    int errorStatus(Value guestError) {
        return api.invokeMember("errorStatus", guestError).asInt();
    }

    void close() {
        context.close(true);
    }

    private static boolean allScalar(JsonNode[] args) {
        for (JsonNode a : args) {
            if (a != null && (a.isObject() || a.isArray())) {
                return false;
            }
        }
        return true;
    }

    private Object scalar(JsonNode a) {
        if (a == null) {
            return undefined;
        }
        if (a.isNull()) {
            return null;
        }
        if (a.isBoolean()) {
            return a.booleanValue();
        }
        if (a.isNumber()) {
            return a.isIntegralNumber() && a.canConvertToLong() ? (Object) a.longValue() : (Object) a.doubleValue();
        }
        return a.asText();
    }

    private static JsonNode fromScalar(Value v) {
        if (v.isNull()) {
            return NullNode.instance;
        }
        if (v.isBoolean()) {
            return BooleanNode.valueOf(v.asBoolean());
        }
        if (v.isString()) {
            return TextNode.valueOf(v.asString());
        }
        if (v.fitsInLong()) {
            return LongNode.valueOf(v.asLong());
        }
        return DoubleNode.valueOf(v.asDouble());
    }

    private static String string(Value[] args, int i) {
        return i < args.length && args[i].isString() ? args[i].asString() : null;
    }
}
