package dev.partita.core.partition;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue.Bool;
import dev.partita.core.partition.PartitionKeyValue.Component;
import dev.partita.core.partition.PartitionKeyValue.Null;
import dev.partita.core.partition.PartitionKeyValue.Num;
import dev.partita.core.partition.PartitionKeyValue.Str;
import dev.partita.core.partition.PartitionKeyValue.Undefined;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads partition key values from the wire ({@link PartitionKeyValue#fromHeader}, {@link PartitionKeyValue#fromJson}):
 * strictly, with the service's 400s, and without repeating the value in any message.
 */
final class PartitionKeyParser {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String HEADER = "The partition key header (x-ms-documentdb-partitionkey)";

    private PartitionKeyParser() {
    }

    /**
     * Parses the {@code x-ms-documentdb-partitionkey} header: a JSON array with one value per path; {@code {}} (and,
     * as in the SDK, {@code []}) inside it is undefined; numbers become doubles.
     *
     * @throws ServiceException 400 if the header is not a JSON array of strings, numbers, booleans, nulls and
     *                          {@code {}}; the message never repeats the header's value
     */
    static PartitionKeyValue fromHeader(String json) {
        if (json == null || json.isBlank()) {
            throw ServiceException.badRequest(HEADER + " is empty; send a JSON array with one value per partition "
                    + "key path, e.g. [\"value\"].");
        }
        if (json.length() == 2 && json.charAt(0) == '[' && json.charAt(1) == ']') {
            return PartitionKeyValue.EMPTY;
        }
        String plain = plainString(json);
        if (plain != null) {
            return PartitionKeyValue.owning(new Component[] {new Str(plain)});
        }
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw notAnArray();
            }
            Component[] out = new Component[3];
            int n = 0;
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) {
                    throw notJson();
                }
                Component c = switch (t) {
                    case VALUE_STRING -> new Str(p.getText());
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number(p.getDoubleValue());
                    case VALUE_TRUE -> Bool.TRUE;
                    case VALUE_FALSE -> Bool.FALSE;
                    case VALUE_NULL -> Null.INSTANCE;
                    case START_OBJECT -> {
                        if (p.nextToken() != JsonToken.END_OBJECT) {
                            throw notAValue();
                        }
                        yield Undefined.INSTANCE;
                    }
                    case START_ARRAY -> {
                        if (p.nextToken() != JsonToken.END_ARRAY) {
                            throw notAValue();
                        }
                        yield Undefined.INSTANCE;
                    }
                    default -> throw notAValue();
                };
                if (n == out.length) {
                    out = Arrays.copyOf(out, n * 2);
                }
                out[n++] = c;
            }
            if (p.nextToken() != null) {
                throw notJson();
            }
            if (n == 0) {
                return PartitionKeyValue.EMPTY;
            }
            if (n == 1 && out[0] == Undefined.INSTANCE) {
                return PartitionKeyValue.UNDEFINED_KEY;
            }
            return PartitionKeyValue.owning(n == out.length ? out : Arrays.copyOf(out, n));
        } catch (IOException e) {
            // never include e's message: Jackson quotes the offending input
            throw notJson();
        }
    }

    /**
     * The string of a header {@code ["..."]} whose string has no escape and no control character (what the SDKs send
     * for almost every key): exactly what the parser would read, without one. Null for any other header.
     */
    private static String plainString(String json) {
        int n = json.length();
        if (n < 4 || json.charAt(0) != '[' || json.charAt(1) != '"' || json.charAt(n - 2) != '"'
                || json.charAt(n - 1) != ']') {
            return null;
        }
        for (int i = 2; i < n - 2; i++) {
            char c = json.charAt(i);
            if (c == '"' || c == '\\' || c < 0x20) {
                return null;
            }
        }
        return json.substring(2, n - 2);
    }

    /** Like {@link #fromHeader}, from an already parsed JSON array. */
    static PartitionKeyValue fromJson(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw notAnArray();
        }
        if (array.isEmpty()) {
            return PartitionKeyValue.EMPTY;
        }
        Component[] out = new Component[array.size()];
        int i = 0;
        for (JsonNode v : array) {
            Component c;
            if (v.isTextual()) {
                c = new Str(v.textValue());
            } else if (v.isNumber()) {
                c = number(v.doubleValue());
            } else if (v.isBoolean()) {
                c = Bool.of(v.booleanValue());
            } else if (v.isNull()) {
                c = Null.INSTANCE;
            } else if ((v.isObject() || v.isArray()) && v.isEmpty()) {
                c = Undefined.INSTANCE;
            } else {
                throw notAValue();
            }
            out[i++] = c;
        }
        return PartitionKeyValue.owning(out);
    }

    static Num number(double d) {
        if (!Double.isFinite(d)) {
            throw ServiceException.badRequest("A partition key number is outside the range of a double; use a "
                    + "smaller number or a string.");
        }
        return new Num(d);
    }

    private static ServiceException notJson() {
        return ServiceException.badRequest(HEADER + " is not valid JSON; send a JSON array with one value per "
                + "partition key path, e.g. [\"value\"] or [\"tenant\",42].");
    }

    private static ServiceException notAnArray() {
        return ServiceException.badRequest(HEADER + " must be a JSON array with one value per partition key path, "
                + "e.g. [\"value\"].");
    }

    private static ServiceException notAValue() {
        return ServiceException.badRequest("A partition key value must be a string, a number, true, false, null or "
                + "{} (undefined); objects and arrays are not allowed.");
    }
}
