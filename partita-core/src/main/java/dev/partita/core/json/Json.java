package dev.partita.core.json;

import dev.partita.core.error.ServiceException;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** The engine's one JSON mapper, and parsing that turns bad input into the service's 400. */
public final class Json {
    private Json() {
    }

    /**
     * The deepest JSON the parser reads at all: a bound on its recursion, far above any nesting limit an account sets
     * ({@code Limits#maxNestingDepth}, checked by the write path, so that the limit itself can be reported).
     */
    static final int PARSER_DEPTH_BOUND = 1024;

    public static final ObjectMapper MAPPER = JsonMapper.builder().build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(PARSER_DEPTH_BOUND)
                .build());
    }

    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    /** Parses a request body that must be a JSON object. */
    public static ObjectNode parseObject(byte[] body, String what) {
        JsonNode node = parse(body, what);
        if (!(node instanceof ObjectNode o)) {
            throw ServiceException.badRequest("The " + what + " must be a JSON object.");
        }
        return o;
    }

    public static JsonNode parse(byte[] body, String what) {
        if (body == null || body.length == 0) {
            throw ServiceException.badRequest("The " + what + " is empty; a JSON body is required.");
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw ServiceException.badRequest("The " + what + " is empty; a JSON body is required.");
            }
            return node;
        } catch (IOException e) {
            throw invalid(e, what);
        }
    }

    /** The 400 for a body the parser refused ({@code what}: the body's name in the message). */
    public static ServiceException invalid(IOException e, String what) {
        if (e instanceof StreamConstraintsException c) {
            // the parser's bounds: nesting depth, and the length of one string (20 M characters) or number (1,000)
            String m = String.valueOf(c.getOriginalMessage());
            return ServiceException.badRequest("The " + what + (m.startsWith("String value length")
                    ? " holds a string longer than the parser reads."
                    : m.startsWith("Number value length") ? " holds a number with more digits than the parser reads."
                    : " is nested too deeply."));
        }
        return ServiceException.badRequest("The " + what + " is not valid JSON"
                + (e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                        ? " (line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr() + ")."
                        : "."));
    }

    public static JsonNode parse(String text, String what) {
        return parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), what);
    }

    /**
     * The tree as JSON bytes. A tree nested deeper than JSON can be written (a patch can build one from values each
     * within the parse bound) is the request's fault: a 400, as for a body nested too deeply.
     */
    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof StreamConstraintsException) {
                    throw ServiceException.badRequest("The item is nested too deeply.");
                }
            }
            throw new IllegalStateException("serializing a JSON tree cannot fail", e);
        }
    }

    /**
     * Depth of the deepest container in the tree (an object or array counts one level). Measured with an explicit
     * stack, so a tree of any depth (one a patch built, say) is measured rather than overflowing the thread's stack.
     */
    public static int depth(JsonNode node) {
        if (!node.isContainerNode()) {
            return 0;
        }
        record Level(JsonNode node, int depth) {
        }
        java.util.ArrayDeque<Level> pending = new java.util.ArrayDeque<>();
        pending.push(new Level(node, 1));
        int max = 0;
        while (!pending.isEmpty()) {
            Level l = pending.pop();
            max = Math.max(max, l.depth());
            for (JsonNode child : l.node()) {
                if (child.isContainerNode()) {
                    pending.push(new Level(child, l.depth() + 1));
                }
            }
        }
        return max;
    }
}
