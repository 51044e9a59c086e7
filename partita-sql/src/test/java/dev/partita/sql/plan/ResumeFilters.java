package dev.partita.sql.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Test-only model of how the Java SDK resumes a cross-partition ORDER BY query from a user continuation
 * (query-plans.md §3.2): the range filters that replace the placeholder for ranges left of, at and right of the
 * token's range, and the client-side skip of already-returned ties on the target range.
 */
final class ResumeFilters {
    private static final String[] TYPE_TESTS = {"NOT IS_DEFINED(%s)", "IS_NULL(%s)", "IS_BOOLEAN(%s)",
            "IS_NUMBER(%s)", "IS_STRING(%s)", "IS_ARRAY(%s)", "IS_OBJECT(%s)"};

    private ResumeFilters() {
    }

    /** The filter for a range left of the target ({@code left}) or at/right of it. */
    static String filter(ObjectNode queryInfo, JsonNode tokenItems, boolean left) {
        List<String> exprs = new ArrayList<>();
        queryInfo.get("orderByExpressions").forEach(e -> exprs.add(e.asText()));
        List<Boolean> desc = new ArrayList<>();
        queryInfo.get("orderBy").forEach(o -> desc.add(o.asText().equals("Descending")));
        if (exprs.size() == 1) {
            return "(" + keyFilter(exprs.get(0), tokenItems.get(0).get("item"), desc.get(0), !left) + ")";
        }
        List<String> disjuncts = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            StringBuilder d = new StringBuilder("(");
            for (int j = 0; j < i; j++) {
                d.append(equal(exprs.get(j), tokenItems.get(j).get("item"))).append(" AND ");
            }
            boolean inclusive = i == exprs.size() - 1 && !left;
            d.append("(").append(keyFilter(exprs.get(i), tokenItems.get(i).get("item"), desc.get(i), inclusive))
                    .append("))");
            disjuncts.add(d.toString());
        }
        return String.join(" OR ", disjuncts);
    }

    /** {@code e > v OR <later types>} and its variants, as in the §3.2 table. */
    private static String keyFilter(String e, JsonNode v, boolean descending, boolean inclusive) {
        int type = type(v);
        List<String> parts = new ArrayList<>();
        if (v == null) {
            if (descending) {
                return inclusive ? "NOT IS_DEFINED(" + e + ")" : "false";
            }
            parts.add(inclusive ? "true" : "IS_DEFINED(" + e + ")");
        } else {
            String op = descending ? (inclusive ? "<=" : "<") : (inclusive ? ">=" : ">");
            parts.add(e + " " + op + " " + literal(v));
        }
        if (descending) {
            for (int t = 0; t < type; t++) {
                parts.add(TYPE_TESTS[t].formatted(e));
            }
        } else {
            for (int t = type + 1; t < TYPE_TESTS.length; t++) {
                parts.add(TYPE_TESTS[t].formatted(e));
            }
        }
        return String.join(" OR ", parts);
    }

    private static String equal(String e, JsonNode v) {
        return v == null ? "(NOT IS_DEFINED(" + e + "))" : "(" + e + " = " + literal(v) + ")";
    }

    /** Java toString of the item; strings in double quotes with only {@code "} escaped (§3.2). */
    private static String literal(JsonNode v) {
        if (v.isTextual()) {
            return "\"" + v.textValue().replace("\"", "\\\"") + "\"";
        }
        if (v.isNumber()) {
            return v.numberValue().toString();
        }
        return v.toString();
    }

    private static int type(JsonNode v) {
        if (v == null) {
            return 0;
        }
        if (v.isNull()) {
            return 1;
        }
        return v.isBoolean() ? 2 : v.isNumber() ? 3 : v.isTextual() ? 4 : v.isArray() ? 5 : 6;
    }

    /** The SDK's document number of a rid: bytes 8..15, big-endian. */
    static long document(String rid) {
        byte[] b = Base64.getDecoder().decode(rid.replace('-', '/'));
        return ByteBuffer.wrap(b, 8, 8).getLong();
    }

    /**
     * The target range's rows after the SDK's skip: rows whose sort keys equal the token's are dropped when their
     * document number comes before the token's (in the first key's direction).
     */
    static List<JsonNode> skipOnTarget(List<JsonNode> rows, JsonNode tokenItems, String tokenRid, List<Boolean> desc) {
        long tokenDoc = document(tokenRid);
        List<JsonNode> out = new ArrayList<>();
        JsonNode tokenRow = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .set("orderByItems", tokenItems);
        for (JsonNode row : rows) {
            if (SdkPipeline.compareRows(tokenRow, row, desc) == 0) {
                long cmp = tokenDoc - document(row.get("_rid").asText());
                if (desc.get(0)) {
                    cmp = -cmp;
                }
                if (cmp > 0) {
                    continue;
                }
            }
            out.add(row);
        }
        return out;
    }
}
