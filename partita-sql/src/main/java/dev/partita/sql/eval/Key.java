package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Values;

/** A tuple of values (undefined allowed) with the language's deep equality; used for GROUP BY and DISTINCT. */
final class Key {
    private final JsonNode[] values;
    private final int hash;

    Key(JsonNode[] values) {
        this.values = values;
        int h = 1;
        for (JsonNode v : values) {
            h = h * 31 + Values.hash(v);
        }
        this.hash = h;
    }

    /** The key's values (undefined as null), not to be changed. */
    JsonNode[] values() {
        return values;
    }

    static Key of(JsonNode v) {
        return new Key(new JsonNode[] {v});
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Key k) || k.hash != hash || k.values.length != values.length) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            JsonNode a = values[i];
            JsonNode b = k.values[i];
            if (a == null || b == null) {
                if (a != b) {
                    return false;
                }
            } else if (!Values.deepEquals(a, b)) {
                // NaN never equals itself numerically; treat identical NaNs as one key
                if (!(a.isNumber() && b.isNumber() && Double.isNaN(a.doubleValue()) && Double.isNaN(b.doubleValue()))) {
                    return false;
                }
            }
        }
        return true;
    }
}
