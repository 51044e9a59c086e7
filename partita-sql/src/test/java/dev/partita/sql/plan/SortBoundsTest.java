package dev.partita.sql.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.value.Values;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The bounds a filter puts on a path hold every value the filter accepts, and are tight for the SDK's resume filters. */
class SortBoundsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] VALUES = {null, "null", "false", "true", "-3", "0", "2.5", "5", "9", "1e300", "\"\"",
            "\"a\"", "\"ab\"", "\"b\"", "\"" + "x".repeat(120) + "\"", "[]", "[1]", "{}", "{\"a\":1}"};
    static final String[] TESTS = {"IS_DEFINED", "IS_NULL", "IS_BOOLEAN", "IS_NUMBER", "IS_STRING", "IS_ARRAY",
            "IS_OBJECT", "IS_PRIMITIVE"};

    @Property(tries = 600)
    void everyAcceptedValueLiesWithinTheBounds(@ForAll long seed) throws Exception {
        Random r = new Random(seed);
        String filter = expr(r, 3);
        SqlQuery q = Sql.parse("SELECT * FROM c WHERE " + filter);
        // the parameter's value decides the bounds: evaluate with the same one
        Map<String, JsonNode> params = Map.of("@p", JSON.readTree(literal(r).replace('\'', '"')));
        SortBounds bounds = SortBounds.of(q.ast(), params, List.of("n"));
        for (String v : VALUES) {
            ObjectNode item = JSON.createObjectNode().put("id", "x");
            if (v != null) {
                item.set("n", JSON.readTree(v));
            }
            item.put("m", r.nextInt(3));
            if (q.matches(item, params)) {
                assertThat(within(bounds, item.get("n"))).as(filter + " accepts " + v + " but bounds are " + bounds)
                        .isTrue();
            }
        }
    }

    static boolean within(SortBounds b, JsonNode v) {
        int t = Values.typeOrder(v);
        boolean aboveLow = b.low().type() < t || b.low().type() == t
                && (b.low().value() == null || Values.compareTotal(b.low().value(), v) <= 0);
        boolean belowHigh = b.high().type() > t || b.high().type() == t
                && (b.high().value() == null || Values.compareTotal(v, b.high().value()) <= 0);
        return aboveLow && belowHigh;
    }

    static String expr(Random r, int depth) {
        int pick = r.nextInt(depth > 0 ? 12 : 8);
        return switch (pick) {
            case 0 -> "c.n " + new String[] {"=", "<", "<=", ">", ">=", "!="}[r.nextInt(6)] + " " + literal(r);
            case 1 -> literal(r) + " " + new String[] {"=", "<", "<=", ">", ">="}[r.nextInt(5)] + " c.n";
            case 2 -> TESTS[r.nextInt(TESTS.length)] + "(c.n)";
            case 3 -> "NOT IS_DEFINED(c.n)";
            case 4 -> "c.n BETWEEN " + literal(r) + " AND " + literal(r);
            case 5 -> "c.n IN (" + literal(r) + ", " + literal(r) + ")";
            case 6 -> new String[] {"true", "false", "c.m = 1", "c.n > @p", "STARTSWITH(c.n, 'a')"}[r.nextInt(5)];
            case 7 -> "c.m " + new String[] {"=", "<"}[r.nextInt(2)] + " " + r.nextInt(3);
            case 8 -> "(" + expr(r, depth - 1) + " AND " + expr(r, depth - 1) + ")";
            case 9, 10 -> "(" + expr(r, depth - 1) + " OR " + expr(r, depth - 1) + ")";
            default -> "NOT (" + expr(r, depth - 1) + ")";
        };
    }

    static String literal(Random r) {
        String[] pool = {"null", "false", "true", "0", "5", "2.5", "-3", "'a'", "'b'", "''"};
        return pool[r.nextInt(pool.length)];
    }

    @Test
    void theSdksResumeFiltersAreTightBounds() {
        SortBounds asc = bounds("(c.n > 5 OR IS_STRING(c.n) OR IS_ARRAY(c.n) OR IS_OBJECT(c.n))");
        assertPoint(asc.low(), Values.T_NUMBER, 5);
        assertPoint(asc.high(), Values.T_OBJECT, null);
        SortBounds desc = bounds("(c.n <= 9 OR NOT IS_DEFINED(c.n) OR IS_NULL(c.n) OR IS_BOOLEAN(c.n))");
        assertPoint(desc.low(), Values.T_UNDEFINED, null);
        assertPoint(desc.high(), Values.T_NUMBER, 9);
        // two keys: the first key's part of the disjunction is still a bound
        SortBounds two = bounds("((c.n < 5 OR NOT IS_DEFINED(c.n) OR IS_NULL(c.n) OR IS_BOOLEAN(c.n))) OR ((c.n = 5)"
                + " AND (c.m >= 1 OR IS_STRING(c.m) OR IS_ARRAY(c.m) OR IS_OBJECT(c.m)))");
        assertPoint(two.high(), Values.T_NUMBER, 5);
        // the placeholder inside the user's own filter
        SortBounds nested = bounds("((c.n >= 2) AND ((c.n > 5 OR IS_STRING(c.n) OR IS_ARRAY(c.n) OR IS_OBJECT(c.n))))"
                + " AND IS_DEFINED(c.id)");
        assertPoint(nested.low(), Values.T_NUMBER, 5);
        assertPoint(nested.high(), Values.T_NUMBER, null);
        assertThat(bounds("(false)").isEmpty()).isTrue();
        assertThat(bounds("(true)")).isEqualTo(SortBounds.EVERYTHING);
        assertThat(bounds("c.n > 5 AND c.n < 2").isEmpty()).isTrue();
        assertThat(bounds("c.n > 5 AND IS_STRING(c.n)").isEmpty()).isTrue();
    }

    private static void assertPoint(SortBounds.Point p, int type, Integer value) {
        assertThat(p.type()).isEqualTo(type);
        if (value == null) {
            assertThat(p.value()).isNull();
        } else {
            assertThat(p.value().doubleValue()).isEqualTo(value.doubleValue());
        }
    }

    private static SortBounds bounds(String where) {
        return SortBounds.of(Sql.parse("SELECT * FROM c WHERE " + where).ast(), Map.of(), List.of("n"));
    }
}
