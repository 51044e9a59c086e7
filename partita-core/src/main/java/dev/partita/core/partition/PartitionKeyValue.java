package dev.partita.core.partition;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.limits.Limits;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A partition key value: one {@link Component} per path of the container's definition (fewer for a prefix of a
 * hierarchical key, none for {@link #EMPTY}). Immutable.
 *
 * <p>Equality is by components; numbers compare numerically ({@code 5} and {@code 5.0} are the same key) with
 * {@link Double#compare} semantics, like the SDK, so {@code -0.0} and {@code 0.0} differ — as their hashes do.
 *
 * <p>{@link #toString()} shows only the component types, never the values, so a key that slips into a log or an
 * error message does not leak data; use {@link #toJson()} for the value.
 */
public final class PartitionKeyValue {

    /** One value of a partition key. */
    public sealed interface Component permits Undefined, Null, Bool, Num, Str {
    }

    /** The key of an item without the property, sent as {@code {}}. */
    public record Undefined() implements Component {
        public static final Undefined INSTANCE = new Undefined();
    }

    /** JSON null. */
    public record Null() implements Component {
        public static final Null INSTANCE = new Null();
    }

    public record Bool(boolean value) implements Component {
        public static final Bool TRUE = new Bool(true);
        public static final Bool FALSE = new Bool(false);

        public static Bool of(boolean value) {
            return value ? TRUE : FALSE;
        }

        @Override
        public String toString() {
            return "Bool";
        }
    }

    /** A number; every JSON number is a double here, as in the SDK. Must be finite (JSON has no NaN/Infinity). */
    public record Num(double value) implements Component {
        public Num {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a partition key number must be finite");
            }
        }

        @Override
        public String toString() {
            return "Num";
        }
    }

    public record Str(String value) implements Component {
        public Str {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return "Str";
        }
    }

    /** The empty key {@code []}: the key of every item in a container without paths or with a system key. */
    public static final PartitionKeyValue EMPTY = new PartitionKeyValue(new Component[0]);

    private static final PartitionKeyValue UNDEFINED_KEY = new PartitionKeyValue(new Component[] {Undefined.INSTANCE});
    private static final JsonFactory JSON = new JsonFactory();
    private static final String HEADER = "The partition key header (x-ms-documentdb-partitionkey)";

    private final Component[] components;
    private final List<Component> componentList;
    private int hash;

    private PartitionKeyValue(Component[] components) {
        this.components = components;
        this.componentList = java.util.Collections.unmodifiableList(Arrays.asList(components));
    }

    public static PartitionKeyValue of(Component... components) {
        if (components.length == 0) {
            return EMPTY;
        }
        Component[] copy = components.clone();
        for (Component c : copy) {
            Objects.requireNonNull(c, "component");
        }
        return new PartitionKeyValue(copy);
    }

    public static PartitionKeyValue of(List<? extends Component> components) {
        return of(components.toArray(new Component[0]));
    }

    // ------------------------------------------------------------------------------------------------- parsing

    /**
     * Parses the {@code x-ms-documentdb-partitionkey} header: a JSON array with one value per path; {@code {}} (and,
     * as in the SDK, {@code []}) inside it is undefined; numbers become doubles.
     *
     * @throws ServiceException 400 if the header is not a JSON array of strings, numbers, booleans, nulls and
     *                          {@code {}}; the message never repeats the header's value
     */
    public static PartitionKeyValue fromHeader(String json) {
        if (json == null || json.isBlank()) {
            throw ServiceException.badRequest(HEADER + " is empty; send a JSON array with one value per partition "
                    + "key path, e.g. [\"value\"].");
        }
        if (json.length() == 2 && json.charAt(0) == '[' && json.charAt(1) == ']') {
            return EMPTY;
        }
        String plain = plainString(json);
        if (plain != null) {
            return new PartitionKeyValue(new Component[] {new Str(plain)});
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
                return EMPTY;
            }
            if (n == 1 && out[0] == Undefined.INSTANCE) {
                return UNDEFINED_KEY;
            }
            return new PartitionKeyValue(n == out.length ? out : Arrays.copyOf(out, n));
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
    public static PartitionKeyValue fromJson(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw notAnArray();
        }
        if (array.isEmpty()) {
            return EMPTY;
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
        return new PartitionKeyValue(out);
    }

    private static Num number(double d) {
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

    /**
     * The key of an item, as the service extracts it (and the SDKs when no key is given):
     * <ul>
     *   <li>no paths: {@link #EMPTY};</li>
     *   <li>Hash/Range: a missing property or an object is undefined ({@code []} for a system-key container), an
     *       array is undefined, JSON null is null;</li>
     *   <li>MultiHash: a missing property, an object or an array is undefined, as the service stores it: the JS and
     *       .NET SDKs send {@code {}} for a missing level ({@code ["t1",{}]}). The Java SDK's own extraction writes
     *       {@code null} for a missing level, so such a request does not match the item (400/1001); a Java caller
     *       names the key with an undefined component instead;</li>
     *   <li>an integer too large for a long is undefined (the SDK does not see it as a number).</li>
     * </ul>
     * Nested paths ({@code /a/b}) follow objects; a step through a non-object counts as missing.
     *
     * @throws ServiceException 400 if a number overflows a double
     */
    public static PartitionKeyValue extract(PartitionKeyDefinition def, JsonNode item) {
        int levels = def.levels();
        if (levels == 0) {
            return EMPTY;
        }
        if (def.kind() == PartitionKind.MULTI_HASH) {
            Component[] out = new Component[levels];
            for (int i = 0; i < levels; i++) {
                JsonNode v = PartitionKeyPath.lookup(item, def.pathParts(i));
                out[i] = v == null ? Undefined.INSTANCE : itemComponent(v);
            }
            return new PartitionKeyValue(out);
        }
        JsonNode v = PartitionKeyPath.lookup(item, def.pathParts(0));
        if (v == null || v.isObject()) {
            return def.systemKey() ? EMPTY : UNDEFINED_KEY;
        }
        Component c = itemComponent(v);
        return c == Undefined.INSTANCE ? UNDEFINED_KEY : new PartitionKeyValue(new Component[] {c});
    }

    private static Component itemComponent(JsonNode v) {
        if (v.isTextual()) {
            return new Str(v.textValue());
        }
        if (v.isBoolean()) {
            return Bool.of(v.booleanValue());
        }
        if (v.isNull()) {
            return Null.INSTANCE;
        }
        if (v.isNumber()) {
            if (v.isBigInteger()) {
                BigInteger b = v.bigIntegerValue();
                if (b.bitLength() > 63) {
                    return Undefined.INSTANCE;
                }
            }
            return number(v.doubleValue());
        }
        return Undefined.INSTANCE;
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** The components, in path order (unmodifiable). */
    public List<Component> components() {
        return componentList;
    }

    public int size() {
        return components.length;
    }

    public Component component(int i) {
        return components[i];
    }

    /** Direct access for the hashing code (no copy). */
    Component[] raw() {
        return components;
    }

    /**
     * The header form, as the SDK writes it: {@code ["a",5.0]}, {@code [{}]}, {@code []}; numbers as Java writes a
     * double, non-ASCII characters as {@code \}{@code uXXXX}.
     */
    public String toJson() {
        if (components.length == 0) {
            return "[]";
        }
        StringBuilder sb = new StringBuilder(16);
        sb.append('[');
        for (int i = 0; i < components.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            switch (components[i]) {
                case Undefined u -> sb.append("{}");
                case Null n -> sb.append("null");
                case Bool b -> sb.append(b.value());
                case Num n -> sb.append(Double.toString(n.value()));
                case Str s -> appendJsonString(sb, s.value());
            }
        }
        return sb.append(']').toString();
    }

    private static void appendJsonString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7F) {
                        sb.append("\\u");
                        String h = Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT);
                        sb.append("0000", 0, 4 - h.length()).append(h);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** True for a leading part of a hierarchical key: at least one component, fewer than the definition's paths. */
    public boolean isPrefixOf(PartitionKeyDefinition def) {
        return components.length >= 1 && components.length < def.levels();
    }

    /**
     * Checks this key against a container's definition.
     * <ul>
     *   <li>{@code requireFull} (point operations, writes): one component per path; {@link #EMPTY} only for a
     *       container without paths or with a system key;</li>
     *   <li>otherwise (queries, feeds): 1 to {@code levels} components, and fewer than {@code levels} only for a
     *       MultiHash key;</li>
     *   <li>size: the sum of the component sizes (UTF-8 bytes of a string, 8 for a number, 1 otherwise) must not exceed
     *       {@link Limits#maxPartitionKeyBytesV1()} for hash V1 or {@link Limits#maxPartitionKeyBytesV2()} for V2 and
     *       MultiHash.</li>
     * </ul>
     *
     * @throws ServiceException 400 (sub-status 1001 for a wrong number of components) naming the problem, never the
     *                          value
     */
    public void validateFor(PartitionKeyDefinition def, Limits limits, boolean requireFull) {
        int n = components.length;
        int levels = def.levels();
        if (n == 0) {
            if (levels == 0 || def.systemKey()) {
                return;
            }
            throw mismatch(FEWER + " The key is empty but the container is partitioned by " + paths(levels)
                    + "; send one value per path, or [{}] for items without the property.");
        }
        if (n > levels) {
            throw mismatch(MORE + " The key has " + n + " values but the container is partitioned by "
                    + paths(levels) + "; send one value per path.");
        }
        if (n < levels) {
            if (requireFull) {
                throw mismatch(FEWER + " The key has " + n + " values but the container is partitioned by "
                        + paths(levels) + "; this operation needs a value for every path.");
            }
            if (def.kind() != PartitionKind.MULTI_HASH) {
                throw mismatch(FEWER + " The key has " + n + " values but the container is partitioned by "
                        + paths(levels) + "; only hierarchical (MultiHash) keys accept a prefix.");
            }
        }
        int max = def.kind() != PartitionKind.MULTI_HASH && def.version() == 1
                ? limits.maxPartitionKeyBytesV1()
                : limits.maxPartitionKeyBytesV2();
        long size = encodedSize();
        if (size > max) {
            throw ServiceException.badRequest("The partition key is " + size + " bytes, more than the " + max
                    + " bytes allowed for this container (hash version " + def.version() + "); use a shorter "
                    + "partition key value" + (max < limits.maxPartitionKeyBytesV2()
                            ? " or a container with partition key version 2." : "."));
        }
    }

    /** The service's words for a key header with too few or too many values (its "the the" included). */
    private static final String FEWER = "The partition key supplied in x-ms-partitionkey header has fewer components"
            + " than defined in the the collection.";
    private static final String MORE = "The partition key supplied in x-ms-partitionkey header has more components"
            + " than defined in the the collection.";

    private static ServiceException mismatch(String message) {
        return ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH, message);
    }

    private static String paths(int levels) {
        return levels == 1 ? "1 path" : levels + " paths";
    }

    /** The size the limits apply to: UTF-8 bytes of strings, 8 per number, 1 per other component. */
    long encodedSize() {
        long size = 0;
        for (Component c : components) {
            size += switch (c) {
                case Str s -> ByteSink.utf8Length(s.value(), 0, s.value().length());
                case Num n -> 8;
                default -> 1;
            };
        }
        return size;
    }

    // -------------------------------------------------------------------------------------------------- equality

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof PartitionKeyValue other && Arrays.equals(components, other.components);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(components);
            hash = h;
        }
        return h;
    }

    /** The component types only, e.g. {@code PartitionKeyValue[Str, Num]} — never the values. */
    @Override
    public String toString() {
        List<String> types = new ArrayList<>(components.length);
        for (Component c : components) {
            types.add(c.getClass().getSimpleName());
        }
        return "PartitionKeyValue" + types;
    }
}
