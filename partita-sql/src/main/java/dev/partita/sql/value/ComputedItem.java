package dev.partita.sql.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A container item with its computed properties bound beside its stored ones: queries read them like properties
 * ({@code c.cp_lower}), but projecting the item itself ({@code SELECT *}, {@code SELECT VALUE c}, {@code c AS x})
 * returns the item as stored, since the service never returns computed properties unless they are named.
 */
public final class ComputedItem extends ObjectNode {
    private final JsonNode stored;

    private ComputedItem(JsonNode stored, Map<String, JsonNode> fields) {
        super(JsonNodeFactory.instance, fields);
        this.stored = stored;
    }

    /**
     * The stored item with these computed values on top (a computed property shadows a stored property of the same
     * name, as in the service); {@code computed} holds only the values that are defined.
     */
    public static ComputedItem of(ObjectNode stored, Map<String, JsonNode> computed) {
        Map<String, JsonNode> fields = new java.util.LinkedHashMap<>();
        stored.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
        fields.putAll(computed);
        return new ComputedItem(stored, fields);
    }

    /** What a projection returns for {@code v}: the stored item for an item with computed properties. */
    public static JsonNode stored(JsonNode v) {
        return v instanceof ComputedItem c ? c.stored : v;
    }
}
