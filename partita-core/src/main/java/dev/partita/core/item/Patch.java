package dev.partita.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.List;

/**
 * A partial update: the operations {@code add, set, replace, remove, incr, move} over JSON-pointer paths, and an
 * optional filter predicate. {@link #applyTo(ObjectNode)} changes a copy of the item; errors are 400s that name the
 * operation and path, never the values.
 */
public record Patch(List<Op> operations, String condition) {

    public enum Kind { ADD, SET, REPLACE, REMOVE, INCR, MOVE }

    public record Op(Kind kind, String path, JsonNode value, String from) {
    }

    /**
     * Parses a patch body: {@code {"operations":[...],"condition":"FROM c WHERE ..."}} as the Java SDK sends it, or a
     * bare array of operations as the JS SDK's {@code item.patch([...])} sends it (no condition then).
     */
    public static Patch parse(JsonNode body, int maxOperations) {
        if (!(body instanceof ObjectNode) && !(body instanceof ArrayNode)) {
            throw ServiceException.badRequest("The patch body must be a JSON array of operations or a JSON object"
                    + " with an 'operations' array.");
        }
        JsonNode ops = body.isArray() ? body : body.get("operations");
        if (ops == null || !ops.isArray() || ops.isEmpty()) {
            throw ServiceException.badRequest("The patch body must have a non-empty 'operations' array.");
        }
        if (ops.size() > maxOperations) {
            throw ServiceException.badRequest("The number of patch operations can't exceed " + maxOperations
                    + "; this patch has " + ops.size() + ".");
        }
        List<Op> list = new ArrayList<>(ops.size());
        for (JsonNode op : ops) {
            String name = op.path("op").asText("");
            Kind kind = switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "add" -> Kind.ADD;
                case "set" -> Kind.SET;
                case "replace" -> Kind.REPLACE;
                case "remove" -> Kind.REMOVE;
                case "incr", "increment" -> Kind.INCR;
                case "move" -> Kind.MOVE;
                default -> throw ServiceException.badRequest("Unknown patch operation type; use add, set, replace,"
                        + " remove, incr or move.");
            };
            String path = op.path("path").asText(null);
            if (path == null || !path.startsWith("/")) {
                throw ServiceException.badRequest("Every patch operation needs a 'path' starting with '/'.");
            }
            String from = op.path("from").asText(null);
            if (kind == Kind.MOVE && (from == null || !from.startsWith("/"))) {
                throw ServiceException.badRequest("A move operation needs a 'from' path starting with '/'.");
            }
            JsonNode value = op.get("value");
            if ((kind == Kind.ADD || kind == Kind.SET || kind == Kind.REPLACE || kind == Kind.INCR) && value == null) {
                throw ServiceException.badRequest("The " + name + " operation at path " + path + " needs a 'value'.");
            }
            if (kind == Kind.INCR && !value.isNumber()) {
                throw ServiceException.badRequest("The incr operation at path " + path + " needs a numeric 'value'.");
            }
            refuseSystemProperty(path);
            if (from != null && kind == Kind.MOVE) {
                refuseSystemProperty(from);
            }
            list.add(new Op(kind, path, value, from));
        }
        JsonNode condition = body.get("condition");
        return new Patch(list, condition == null || condition.isNull() ? null : condition.asText());
    }

    /** The service's 400 for a path into a system property (partial-document-update FAQ: they are not patchable). */
    private static void refuseSystemProperty(String path) {
        String first = segments(path).get(0);
        if (WriteTxn.SYSTEM_PROPERTIES.contains(first) || "_id".equals(first)) {
            throw ServiceException.badRequest("Invalid patch request: Cannot patch system property '" + first
                    + "'.");
        }
    }

    /** The paths this patch writes (targets and move sources). */
    public List<String> touchedPaths() {
        List<String> out = new ArrayList<>();
        for (Op op : operations) {
            out.add(op.path());
            if (op.from() != null) {
                out.add(op.from());
            }
        }
        return out;
    }

    /**
     * Applies every operation in order to {@code doc} (modified in place). A refusal names its operation as the
     * service's do ({@code For Operation(i): ...}, the texts of the partial-document-update documentation's
     * troubleshooting table, which applications match on).
     */
    public void applyTo(ObjectNode doc) {
        for (int i = 0; i < operations.size(); i++) {
            try {
                apply(doc, operations.get(i));
            } catch (ServiceException refused) {
                throw ServiceException.badRequest("For Operation(" + i + "): " + refused.getMessage());
            }
        }
    }

    private static void apply(ObjectNode doc, Op op) {
        switch (op.kind()) {
            case ADD -> add(doc, op.path(), op.value().deepCopy(), false, "add");
            case SET -> add(doc, op.path(), op.value().deepCopy(), true, "set");
            case REPLACE -> replace(doc, op.path(), op.value().deepCopy());
            case REMOVE -> remove(doc, op.path(), "remove");
            case INCR -> incr(doc, op.path(), op.value());
            case MOVE -> {
                if (op.path().startsWith(op.from() + "/")) {
                    throw ServiceException.badRequest("A move cannot put a value inside itself (path " + op.path()
                            + ").");
                }
                JsonNode moved = remove(doc, op.from(), "move");
                add(doc, op.path(), moved, true, "move");
            }
        }
    }

    private static void add(ObjectNode doc, String path, JsonNode value, boolean setInArray, String name) {
        Target t = parent(doc, path, name);
        if (t.container instanceof ObjectNode o) {
            o.set(t.last, value);
        } else {
            ArrayNode a = (ArrayNode) t.container;
            if ("-".equals(t.last)) {
                a.add(value);
                return;
            }
            int i = index(t.last, path, name);
            if (setInArray && i < a.size()) {
                a.set(i, value);
            } else if (i <= a.size()) {
                a.insert(i, value);
            } else {
                throw ServiceException.badRequest("Index(" + i + ") to operate on is out of array bounds.");
            }
        }
    }

    private static void replace(ObjectNode doc, String path, JsonNode value) {
        Target t = parent(doc, path, "replace");
        if (t.container instanceof ObjectNode o) {
            if (!o.has(t.last)) {
                throw missing("replace", path);
            }
            o.set(t.last, value);
        } else {
            ArrayNode a = (ArrayNode) t.container;
            int i = index(t.last, path, "replace");
            if (i >= a.size()) {
                throw missing("replace", path);
            }
            a.set(i, value);
        }
    }

    private static JsonNode remove(ObjectNode doc, String path, String name) {
        Target t = parent(doc, path, name);
        if (t.container instanceof ObjectNode o) {
            if (!o.has(t.last)) {
                throw missing(name, path);
            }
            return o.remove(t.last);
        }
        ArrayNode a = (ArrayNode) t.container;
        int i = index(t.last, path, name);
        if (i >= a.size()) {
            throw missing(name, path);
        }
        return a.remove(i);
    }

    private static void incr(ObjectNode doc, String path, JsonNode by) {
        Target t = parent(doc, path, "incr");
        JsonNode current = t.container instanceof ObjectNode o ? o.get(t.last)
                : ((ArrayNode) t.container).get(index(t.last, path, "incr"));
        JsonNode result;
        if (current == null) {
            result = by.deepCopy();
        } else if (!current.isNumber()) {
            throw ServiceException.badRequest("Node(" + path + ") is not a number.");
        } else if (current.isIntegralNumber() && by.isIntegralNumber()) {
            // 64-bit integers add exactly; past that range (or from a number already outside it) there is no exact
            // answer to store, so the patch is refused rather than wrapped around or rounded
            if (!current.canConvertToLong() || !by.canConvertToLong()) {
                throw outOfRange(path, "the 64-bit integer range");
            }
            long sum = current.longValue() + by.longValue();
            if (((current.longValue() ^ sum) & (by.longValue() ^ sum)) < 0) {
                throw outOfRange(path, "the 64-bit integer range");
            }
            result = dev.partita.core.json.Json.NODES.numberNode(sum);
        } else {
            double sum = current.doubleValue() + by.doubleValue();
            if (!Double.isFinite(sum)) {
                throw outOfRange(path, "the largest number JSON can hold");
            }
            result = dev.partita.core.json.Json.NODES.numberNode(sum);
        }
        if (t.container instanceof ObjectNode o) {
            o.set(t.last, result);
        } else {
            ((ArrayNode) t.container).set(index(t.last, path, "incr"), result);
        }
    }

    /** The message names the path and the range, never the numbers (they are document values). */
    private static ServiceException outOfRange(String path, String range) {
        return ServiceException.badRequest("Node(" + path + ") would take the number past " + range
                + "; the item is unchanged.");
    }

    private record Target(JsonNode container, String last) {
    }

    private static Target parent(ObjectNode doc, String path, String name) {
        List<String> segments = segments(path);
        JsonNode node = doc;
        for (int i = 0; i < segments.size() - 1; i++) {
            String s = segments.get(i);
            node = node.isArray() ? node.get(index(s, path, name)) : node.get(s);
            if (node == null || !node.isContainerNode()) {
                throw noParent(name, path, s);
            }
        }
        return new Target(node, segments.get(segments.size() - 1));
    }

    private static int index(String segment, String path, String name) {
        try {
            int i = Integer.parseInt(segment);
            if (i >= 0) {
                return i;
            }
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw ServiceException.badRequest("The " + name + " operation's path " + path + " needs an array index.");
    }

    private static ServiceException missing(String name, String path) {
        return ServiceException.badRequest("replace".equals(name) ? "Node(" + path + ") to be replaced is absent."
                : "Node(" + path + ") to be removed is absent. Note: it might also have been removed earlier in the"
                        + " transaction.");
    }

    /** A path whose parent is not there: the service creates no path recursively. */
    private static ServiceException noParent(String name, String path, String absentSegment) {
        return switch (name) {
            case "replace", "remove" -> missing(name, path);
            case "add" -> ServiceException.badRequest("Add Operation only support adding a leaf node of an existing"
                    + " node(array or object), no path found beyond: '" + absentSegment + "'");
            default -> ServiceException.badRequest("Given Operation can only create a child object of an existing"
                    + " node(array or object) and cannot create path recursively, no path found beyond: '"
                    + absentSegment + "'");
        };
    }

    /** JSON-pointer segments with {@code ~1} and {@code ~0} unescaped. */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String raw : path.substring(1).split("/", -1)) {
            out.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        if (out.isEmpty() || out.get(0).isEmpty() && out.size() == 1) {
            throw ServiceException.badRequest("A patch path must name a property, not the whole item.");
        }
        return out;
    }
}
