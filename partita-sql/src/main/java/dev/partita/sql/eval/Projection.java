package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.value.ComputedItem;

/** How a SELECT turns a row's bound slots into its output: {@code *}, {@code VALUE e}, or a list of members. */
sealed interface Projection {
    JsonNode project(Frame f);

    /** {@code SELECT *}: the FROM source's value. */
    record Star(int slot) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            return ComputedItem.stored(f.slots[slot]);
        }
    }

    /** {@code SELECT VALUE e}. */
    record Value(Eval value) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            return ComputedItem.stored(value.eval(f));
        }
    }

    /** {@code SELECT e1 AS a, e2 AS b}: an object of the defined values. */
    record Members(String[] names, Eval[] values) implements Projection {
        @Override
        public JsonNode project(Frame f) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (int i = 0; i < names.length; i++) {
                JsonNode v = values[i].eval(f);
                if (v != null) {
                    out.set(names[i], ComputedItem.stored(v));
                }
            }
            return out;
        }
    }
}
