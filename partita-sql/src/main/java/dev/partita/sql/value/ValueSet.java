package dev.partita.sql.value;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Defined values under the language's deep equality ({@link Values#deepEquals}, hashed by {@link Values#hash}), in the
 * order they were first added: what the Set* and ARRAY_CONTAINS_* functions test membership in. A linear search per
 * element made {@code SetIntersect} of two 100,000-element arrays take 11 s and of objects 39 s, in one evaluation the
 * query's time budget cannot interrupt; a hash lookup keeps every such function linear.
 */
public final class ValueSet {
    private final Set<Member> members = new HashSet<>();
    private final List<JsonNode> order = new ArrayList<>();

    public static ValueSet of(Iterable<JsonNode> values) {
        ValueSet s = new ValueSet();
        for (JsonNode v : values) {
            s.add(v);
        }
        return s;
    }

    /** Adds {@code v} unless an equal value is here; whether it was added. */
    public boolean add(JsonNode v) {
        if (members.add(new Member(v))) {
            order.add(v);
            return true;
        }
        return false;
    }

    public boolean contains(JsonNode v) {
        return members.contains(new Member(v));
    }

    /** The values, each once, in the order first added. */
    public List<JsonNode> values() {
        return order;
    }

    /** A value keyed by deep equality (NaN equals nothing, itself included, as in {@link Values#deepEquals}). */
    private record Member(JsonNode value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Member m && Values.deepEquals(value, m.value);
        }

        @Override
        public int hashCode() {
            return Values.hash(value);
        }
    }
}
