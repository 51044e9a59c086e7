package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Registry of built-in functions by lower-case name, plus the names the language knows but Partita
 * does not implement (DocumentId) and the aggregate names. The search functions are compiled by
 * {@link dev.partita.sql.search.SearchFunctions}.
 */
public final class Builtins {
    public static final int VARIADIC = Integer.MAX_VALUE;

    private static final Map<String, Builtin> FUNCTIONS = new HashMap<>();

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "makelist", "makeset",
            "countif");

    private static final Set<String> UNSUPPORTED = Set.of("documentid");

    static {
        TypeFunctions.register();
        MathFunctions.register();
        StringFunctions.register();
        ArrayFunctions.register();
        DateTimeFunctions.register();
        SpatialFunctions.register();
    }

    private Builtins() {
    }

    static void add(String name, int min, int max, boolean strict, Builtin.Impl impl) {
        FUNCTIONS.put(name.toLowerCase(Locale.ROOT), new Builtin(name, min, max, strict, true, impl));
    }

    static void addNonDeterministic(String name, int min, int max, Builtin.Impl impl) {
        FUNCTIONS.put(name.toLowerCase(Locale.ROOT), new Builtin(name, min, max, true, false, impl));
    }

    /** The scalar function with this name (any case), or null. */
    public static Builtin lookup(String name) {
        return FUNCTIONS.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every built-in scalar function, by its documented name. */
    public static java.util.List<Builtin> all() {
        return FUNCTIONS.values().stream().sorted(java.util.Comparator.comparing(Builtin::name)).toList();
    }

    /** True for aggregate function names (any case). */
    public static boolean isAggregate(String name) {
        return AGGREGATES.contains(name.toLowerCase(Locale.ROOT));
    }

    /** True for functions of the language that Partita recognizes but does not implement. */
    public static boolean isUnsupported(String name) {
        return UNSUPPORTED.contains(name.toLowerCase(Locale.ROOT));
    }

    // ------------------------------------------------------------------ helpers for implementations

    static String str(JsonNode n) {
        return n != null && n.isTextual() ? n.textValue() : null;
    }

    static boolean isNum(JsonNode n) {
        return n != null && n.isNumber();
    }

    /** Optional boolean flag argument: absent → default; boolean → its value; anything else → null (undefined). */
    static Boolean flag(JsonNode[] args, int i, boolean dflt) {
        if (args.length <= i) {
            return dflt;
        }
        JsonNode n = args[i];
        if (n == null || !n.isBoolean()) {
            return null;
        }
        return n.booleanValue();
    }
}
