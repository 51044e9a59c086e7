package dev.partita.core.item;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A transactional batch's or bulk request's body read into its operations in one pass, keeping each operation's
 * {@code resourceBody} object as the bytes the client sent beside its parsed tree: a create, upsert or replace then
 * stores those bytes with the system properties appended, as a point write stores its request body, instead of
 * encoding the tree again (a bulk request carries up to 100 items).
 *
 * <p>The body is read whole before any operation is checked, so a body that is not JSON is refused with the parser's
 * 400 whatever its operations say, as when it was parsed into one tree first.
 */
final class BatchBody {
    private static final String RESOURCE_BODY = "resourceBody";

    private BatchBody() {
    }

    /** The operations of {@code body}, in order ({@code what}: the body's name in errors). */
    static List<BatchOperation> parse(byte[] body, String what, boolean bulk) {
        if (body == null || body.length == 0 || !startsArray(body)) {
            // empty, not JSON or not an array: the one-tree parse says which, in its words
            return BatchOperation.parseAll(Json.parse(body, what), bulk);
        }
        List<JsonNode> nodes = new ArrayList<>();
        List<byte[]> resources = new ArrayList<>();
        try (JsonParser p = Json.MAPPER.createParser(body)) {
            p.nextToken(); // the array
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t == null) {
                    throw new JsonParseException(p, "Unexpected end of input in an array");
                }
                byte[][] resource = new byte[1][];
                nodes.add(t == JsonToken.START_OBJECT ? operation(p, body, resource) : Json.MAPPER.readTree(p));
                resources.add(resource[0]);
            }
        } catch (IOException e) {
            throw Json.invalid(e, what);
        }
        List<BatchOperation> ops = BatchOperation.parseAll(Json.NODES.arrayNode().addAll(nodes), bulk);
        List<BatchOperation> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            out.add(ops.get(i).withResourceBytes(resources.get(i)));
        }
        return out;
    }

    /**
     * One operation object, the parser at its start; {@code resource[0]} gets the bytes of its {@code resourceBody}
     * when that is an object (the last one, should the field repeat, as the tree keeps the last).
     */
    private static ObjectNode operation(JsonParser p, byte[] body, byte[][] resource) throws IOException {
        ObjectNode op = Json.object();
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            long start = p.currentTokenLocation().getByteOffset();
            JsonNode value = Json.MAPPER.readTree(p);
            op.set(field, value);
            if (field.equals(RESOURCE_BODY)) {
                resource[0] = t == JsonToken.START_OBJECT
                        ? object(body, start, p.currentLocation().getByteOffset()) : null;
            }
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new JsonParseException(p, "Unexpected token in an operation");
        }
        return op;
    }

    /**
     * The bytes {@code [start, end)} when they are the object just read: offsets are byte offsets only in a UTF-8
     * body (the parser also reads UTF-16 and UTF-32, and gives -1 there), else null (the tree is encoded instead).
     */
    private static byte[] object(byte[] body, long start, long end) {
        if (start < 0 || end <= start || end > body.length || body[(int) start] != '{' || body[(int) end - 1] != '}') {
            return null;
        }
        return Arrays.copyOfRange(body, (int) start, (int) end);
    }

    private static boolean startsArray(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b == '[';
            }
        }
        return false;
    }
}
