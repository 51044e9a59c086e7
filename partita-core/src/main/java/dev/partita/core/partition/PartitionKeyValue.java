package dev.partita.core.partition;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
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

    static final PartitionKeyValue UNDEFINED_KEY = new PartitionKeyValue(new Component[] {Undefined.INSTANCE});

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
        return PartitionKeyParser.fromHeader(json);
    }

    /** Like {@link #fromHeader}, from an already parsed JSON array. */
    public static PartitionKeyValue fromJson(JsonNode array) {
        return PartitionKeyParser.fromJson(array);
    }

    /** A key of these components, which the caller hands over (no copy). */
    static PartitionKeyValue owning(Component[] components) {
        return new PartitionKeyValue(components);
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
            return PartitionKeyParser.number(v.doubleValue());
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
     * Checks this key against a container's definition (the number of values, the size limits: {@link
     * PartitionKeyRules}); {@code requireFull} for point operations and writes, which need a value for every path.
     *
     * @throws ServiceException 400 (sub-status 1001 for a wrong number of components) naming the problem, never the
     *                          value
     */
    public void validateFor(PartitionKeyDefinition def, Limits limits, boolean requireFull) {
        PartitionKeyRules.check(this, def, limits, requireFull);
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
