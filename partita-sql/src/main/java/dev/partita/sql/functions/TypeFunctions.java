package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

import static dev.partita.sql.functions.Builtins.add;

/** Type-checking functions (never undefined) and IIF. */
final class TypeFunctions {
    private TypeFunctions() {
    }

    static void register() {
        add("IS_ARRAY", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isArray()));
        add("IS_BOOL", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isBoolean()));
        // the spelling the SDKs use in their ORDER BY resume filters
        add("IS_BOOLEAN", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isBoolean()));
        add("IS_DEFINED", 1, 1, false, (a, e) -> Values.bool(Values.typeOrder(a[0]) != Values.T_UNDEFINED));
        add("IS_NULL", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isNull()));
        add("IS_NUMBER", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isNumber()));
        add("IS_OBJECT", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isObject()));
        add("IS_STRING", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isTextual()));
        add("IS_PRIMITIVE", 1, 1, false, (a, e) -> {
            int t = Values.typeOrder(a[0]);
            return Values.bool(t == Values.T_NULL || t == Values.T_BOOLEAN || t == Values.T_NUMBER
                    || t == Values.T_STRING);
        });
        add("IS_FINITE_NUMBER", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isNumber()
                && Double.isFinite(a[0].doubleValue())));
        add("IS_INTEGER", 1, 1, false, (a, e) -> Values.bool(Num.isInteger(a[0])));
        add("IS_DATETIME", 1, 1, false, (a, e) -> Values.bool(a[0] != null && a[0].isTextual()
                && DateTimes.parse(a[0].textValue()) != DateTimes.INVALID));
        add("IIF", 3, 3, false, (a, e) -> Values.isTrue(a[0]) ? a[1] : a[2]);
    }

}
