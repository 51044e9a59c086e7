package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.value.Values;
import java.util.Map;

/** Reads a filter operand that is a known primitive value: what the plan's filter analyses can reason about. */
final class PrimitiveConstants {
    private PrimitiveConstants() {
    }

    /**
     * The value of a literal or supplied parameter when it is null, a boolean, a number (not NaN, which equals
     * nothing) or a string; Java null for anything else (an expression, an array or object, a missing parameter).
     */
    static JsonNode of(Expr e, Map<String, JsonNode> params) {
        JsonNode v;
        if (e instanceof Expr.Literal l) {
            v = l.value();
        } else if (e instanceof Expr.Param p && params.containsKey(p.name())) {
            v = params.get(p.name());
            if (v == null) {
                v = NullNode.instance;
            }
        } else {
            return null;
        }
        if (v == null) {
            return null;
        }
        int t = Values.typeOrder(v);
        if (t == Values.T_NUMBER && Double.isNaN(v.doubleValue())) {
            return null;
        }
        return t == Values.T_NULL || t == Values.T_BOOLEAN || t == Values.T_NUMBER || t == Values.T_STRING ? v : null;
    }
}
