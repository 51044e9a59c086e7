package dev.partita.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.value.Values;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The terms an item produces under a policy, and the order of their encoding. */
class IndexTermsTest {
    static final JsonNode DOC = Json.parse("""
            {"id":"x","pk":"p","n":5,"s":"abc","flag":true,"nothing":null,"tags":["a","b"],
             "address":{"city":"Oslo","zip":"0150","geo":{"lat":1.5,"lon":2}},"_ts":1700000000,"_etag":"\\"e\\""}""",
            "doc");

    static int count(String policy) {
        return IndexTerms.of(IndexingPolicyTest.policy(policy), DOC).size();
    }

    @Test
    void theDefaultPolicyGivesOneTermPerScalarButTheEtag() {
        // id pk n s flag nothing tags[0] tags[1] city zip lat lon _ts = 13 scalars besides _etag
        assertThat(IndexTerms.of(IndexingPolicy.DEFAULT, DOC)).hasSize(13);
    }

    @Test
    void aRestrictivePolicyGivesFewerTermsAndCountsMissingExplicitPaths() {
        // id and _ts always; n and address.city present; /missing/? is written as an undefined entry
        assertThat(count("""
                {"includedPaths":[{"path":"/n/?"},{"path":"/address/city/?"},{"path":"/missing/?"}],
                 "excludedPaths":[{"path":"/*"}]}""")).isEqualTo(5);
        assertThat(count("""
                {"includedPaths":[{"path":"/address/*"}],"excludedPaths":[{"path":"/*"},{"path":"/address/geo/*"}]}"""))
                .isEqualTo(4);
        assertThat(count("{\"indexingMode\":\"none\",\"automatic\":false}")).isZero();
    }

    /** A policy keeps its decisions for the paths its items share, up to a bound past which it decides anew. */
    @Test
    void itemsOfOnePolicyGetTheSameTermsFromItsKeptDecisionsAsFromAFreshPolicy() {
        String text = "{\"includedPaths\":[{\"path\":\"/*\"}],\"excludedPaths\":[{\"path\":\"/address/geo/*\"}]}";
        IndexingPolicy kept = IndexingPolicyTest.policy(text);
        List<String> first = hex(IndexTerms.of(kept, DOC));
        assertThat(hex(IndexTerms.of(kept, DOC))).isEqualTo(first)
                .isEqualTo(hex(IndexTerms.of(IndexingPolicyTest.policy(text), DOC))).hasSize(12);
        com.fasterxml.jackson.databind.node.ObjectNode wide = Json.object().put("id", "w");
        for (int i = 0; i < PathDecisions.MAX_PATHS + 500; i++) {
            wide.put("p" + i, i);
        }
        List<String> full = hex(IndexTerms.of(kept, wide));
        assertThat(full).hasSize(PathDecisions.MAX_PATHS + 501)
                .isEqualTo(hex(IndexTerms.of(kept, wide)))
                .isEqualTo(hex(IndexTerms.of(IndexingPolicyTest.policy(text), wide)));
        assertThat(hex(IndexTerms.of(kept, DOC))).isEqualTo(first);
    }

    private static List<String> hex(List<byte[]> terms) {
        return terms.stream().map(java.util.HexFormat.of()::formatHex).toList();
    }

    @Test
    void entryKeysPointBackToTheirItem() {
        for (byte[] term : IndexTerms.of(IndexingPolicy.DEFAULT, DOC)) {
            byte[] entry = StoreKeys.index(7, term, "0A1B", "id/ü");
            assertThat(IndexTerms.itemKey(7, entry)).isEqualTo(StoreKeys.item(7, "0A1B", "id/ü"));
        }
    }

    @Property(tries = 300)
    void termOrderIsTheLanguagesCrossTypeOrder(@ForAll("values") JsonNode a, @ForAll("values") JsonNode b) {
        byte[] ta = IndexTerms.term(List.of("p"), a);
        byte[] tb = IndexTerms.term(List.of("p"), b);
        int expected = Integer.signum(Values.compareTotal(a, b));
        if (a.isNumber() && b.isNumber() && a.doubleValue() == b.doubleValue()) {
            expected = 0; // numbers are indexed as doubles
        }
        assertThat(Integer.signum(Bytes.compare(ta, tb))).as(a + " vs " + b).isEqualTo(expected);
    }

    @Property(tries = 300)
    void aStringTermGivesBackTheStringsStartAndOtherTermsNone(@ForAll("values") JsonNode v) {
        JsonNode value = v.isTextual() && v.textValue().length() % 2 == 1
                ? Json.NODES.textNode(v.textValue().repeat(60)) : v; // some longer than a term keeps
        byte[] entry = StoreKeys.index(7, IndexTerms.term(new ArrayList<>(List.of("p")), value), "0A", "id");
        String s = IndexTerms.stringOf(IndexTerms.termOf(entry));
        if (!value.isTextual()) {
            assertThat(s).isNull();
        } else {
            assertThat(s).isEqualTo(IndexTerms.truncated(value.textValue()));
            assertThat(IndexTerms.mayBeTruncated(s)).isEqualTo(!IndexTerms.isExact(IndexTerms.termOf(entry)));
        }
    }

    @Provide
    Arbitrary<JsonNode> values() {
        List<Arbitrary<JsonNode>> kinds = new ArrayList<>();
        kinds.add(Arbitraries.just(Json.NODES.nullNode()));
        kinds.add(Arbitraries.of(true, false).map(Json.NODES::booleanNode));
        kinds.add(Arbitraries.integers().between(-1000, 1000).map(Json.NODES::numberNode));
        kinds.add(Arbitraries.doubles().between(-1e6, 1e6).map(Json.NODES::numberNode));
        kinds.add(Arbitraries.strings().withCharRange('\u0000', '\u0003').withChars('a', 'b', '\u00ff', '\u0100',
                '\uffff', '\ud83d', '\ude00').ofMaxLength(4).map(Json.NODES::textNode));
        return Arbitraries.oneOf(kinds);
    }

    @Test
    void aTermIsExactWhenOnlyOneValueHasIt() {
        java.util.Map<String, Boolean> cases = new java.util.LinkedHashMap<>();
        cases.put("null", true);
        cases.put("true", true);
        cases.put("-2.5", true);
        cases.put("9007199254740991", true);
        cases.put("9007199254740993", false);
        cases.put("-1e300", false);
        cases.put("\"abc\"", true);
        cases.put("\"" + "x".repeat(99) + "\"", true);
        cases.put("\"" + "x".repeat(100) + "\"", false);
        cases.put("\"" + "\\u0000".repeat(99) + "\"", true);
        cases.put("\"" + "\\u0100".repeat(100) + "\"", false);
        cases.forEach((json, exact) -> {
            byte[] term = IndexTerms.term(new ArrayList<>(List.of("a", "b")), Json.parse(json, "value"));
            byte[] entry = StoreKeys.index(7, term, "0A", "id");
            assertThat(IndexTerms.isExact(IndexTerms.termOf(entry))).as(json).isEqualTo(exact);
        });
    }
}
