package dev.partita.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.value.Values;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of the value model and of ORDER BY, over generated JSON values. */
class ValuePropertiesTest {

    @Provide
    Arbitrary<JsonNode> values() {
        return values(2);
    }

    private static Arbitrary<JsonNode> values(int depth) {
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                Arbitraries.just(NullNode.instance),
                Arbitraries.of(BooleanNode.TRUE, BooleanNode.FALSE),
                Arbitraries.longs().between(-5, 5).map(LongNode::valueOf),
                Arbitraries.longs().between(-5, 5).map(l -> (JsonNode) DoubleNode.valueOf(l)),
                Arbitraries.doubles().between(-5, 5).map(DoubleNode::valueOf),
                Arbitraries.strings().withChars("aAbB").ofMaxLength(2).map(TextNode::valueOf));
        if (depth == 0) {
            return scalars;
        }
        Arbitrary<JsonNode> inner = values(depth - 1);
        Arbitrary<JsonNode> arrays = inner.list().ofMaxSize(3).map(l -> {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            a.addAll(l);
            return a;
        });
        Arbitrary<JsonNode> objects = inner.list().ofMaxSize(3).map(l -> {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            for (int i = l.size() - 1; i >= 0; i--) {
                o.set("k" + i, l.get(i));
            }
            return o;
        });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, scalars), net.jqwik.api.Tuple.of(1, arrays), net.jqwik.api.Tuple.of(1, objects));
    }

    @Provide
    Arbitrary<List<JsonNode>> valueLists() {
        return values(2).list().ofMaxSize(12);
    }

    @Property(tries = 300)
    void equalValuesHashAlike(@ForAll("values") JsonNode a, @ForAll("values") JsonNode b) {
        if (Values.deepEquals(a, b)) {
            assertThat(Values.hash(a)).isEqualTo(Values.hash(b));
        }
        assertThat(Values.deepEquals(a, b)).isEqualTo(Values.deepEquals(b, a));
    }

    @Property(tries = 300)
    void totalOrderIsAntisymmetric(@ForAll("values") JsonNode a, @ForAll("values") JsonNode b) {
        assertThat(Integer.signum(Values.compareTotal(a, b))).isEqualTo(-Integer.signum(Values.compareTotal(b, a)));
    }

    @Property(tries = 100)
    void orderByReturnsEveryItemSortedByTypeThenValue(@ForAll("valueLists") List<JsonNode> keys) {
        List<JsonNode> items = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("i", i);
            o.set("k", keys.get(i));
            items.add(o);
        }
        List<JsonNode> rows = Sql.parse("SELECT VALUE c.k FROM c ORDER BY c.k").execute(items, Map.of(),
                QueryTestSupport.CTX);
        assertThat(rows).hasSize(items.size());
        for (int i = 1; i < rows.size(); i++) {
            assertThat(Values.compareTotal(rows.get(i - 1), rows.get(i))).isLessThanOrEqualTo(0);
        }
    }

    @Property(tries = 100)
    void distinctRemovesExactlyTheDeepDuplicates(@ForAll("valueLists") List<JsonNode> keys) {
        List<JsonNode> items = new ArrayList<>();
        for (JsonNode k : keys) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.set("k", k);
            items.add(o);
        }
        List<JsonNode> rows = Sql.parse("SELECT DISTINCT VALUE c.k FROM c").execute(items, Map.of(),
                QueryTestSupport.CTX);
        for (int i = 0; i < rows.size(); i++) {
            for (int j = i + 1; j < rows.size(); j++) {
                assertThat(Values.deepEquals(rows.get(i), rows.get(j))).isFalse();
            }
        }
        for (JsonNode k : keys) {
            assertThat(rows.stream().anyMatch(r -> Values.deepEquals(r, k)) || Double.isNaN(k.asDouble(0))).isTrue();
        }
    }
}
