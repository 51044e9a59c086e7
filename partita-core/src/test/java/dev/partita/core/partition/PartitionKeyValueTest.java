package dev.partita.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue.Bool;
import dev.partita.core.partition.PartitionKeyValue.Null;
import dev.partita.core.partition.PartitionKeyValue.Num;
import dev.partita.core.partition.PartitionKeyValue.Str;
import dev.partita.core.partition.PartitionKeyValue.Undefined;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionKeyValueTest {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final Limits LIMITS = Limits.DEFAULTS;
    static final PartitionKeyDefinition V1 = PartitionKeyDefinition.hashV1("/pk");
    static final PartitionKeyDefinition V2 = PartitionKeyDefinition.hash("/pk");
    static final PartitionKeyDefinition MULTI = PartitionKeyDefinition.multiHash("/tenantId", "/userId", "/sessionId");

    static JsonNode json(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A 400 whose message does not contain {@code secret}. */
    static void assertBadRequestWithout(ThrowingCallable call, String secret) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).isNotBlank().doesNotContain(secret);
        });
    }

    // ------------------------------------------------------------------------------------------------ header

    @Test
    void aPlainStringKeyReadsAsTheParserWouldReadIt() {
        assertThat(PartitionKeyValue.fromHeader("[\"pk-1\"]").components()).containsExactly(new Str("pk-1"));
        assertThat(PartitionKeyValue.fromHeader("[\"\"]").components()).containsExactly(new Str(""));
        assertThat(PartitionKeyValue.fromHeader("[\"a\\\"b\"]").components()).containsExactly(new Str("a\"b"));
        assertThat(PartitionKeyValue.fromHeader("[\"a\\u00e9\"]").components()).containsExactly(new Str("a\u00e9"));
        assertThat(PartitionKeyValue.fromHeader("[\"a\",\"b\"]").components()).containsExactly(new Str("a"),
                new Str("b"));
        // a raw control character is not JSON, with or without the short cut
        assertThatThrownBy(() -> PartitionKeyValue.fromHeader("[\"a\tb\"]")).isInstanceOf(ServiceException.class);
    }

    @Test
    void parsesEveryComponentType() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"a\", 5, 5.5, true, false, null, {}]");
        assertThat(v.components()).containsExactly(new Str("a"), new Num(5), new Num(5.5), Bool.TRUE, Bool.FALSE,
                Null.INSTANCE, Undefined.INSTANCE);
        assertThat(v.size()).isEqualTo(7);
    }

    @Test
    void numbersAreEqualNumerically() {
        assertThat(PartitionKeyValue.fromHeader("[5.0]")).isEqualTo(PartitionKeyValue.fromHeader("[5]"))
                .hasSameHashCodeAs(PartitionKeyValue.fromHeader("[5]"))
                .isEqualTo(PartitionKeyValue.fromHeader("[5e0]"))
                .isEqualTo(PartitionKeyValue.fromHeader("[ 5.000 ]"))
                .isEqualTo(PartitionKeyValue.of(new Num(5)));
        assertThat(PartitionKeyValue.fromHeader("[5]")).isNotEqualTo(PartitionKeyValue.fromHeader("[\"5\"]"));
        assertThat(PartitionKeyValue.fromHeader("[-1]")).isEqualTo(PartitionKeyValue.fromHeader("[-1.0]"));
        assertThat(PartitionKeyValue.fromHeader("[12345678901234567890]").component(0))
                .isEqualTo(new Num(12345678901234567890.0));
    }

    @Test
    void undefinedAndEmpty() {
        assertThat(PartitionKeyValue.fromHeader("[{}]").components()).containsExactly(Undefined.INSTANCE);
        assertThat(PartitionKeyValue.fromHeader("[ { } ]")).isEqualTo(PartitionKeyValue.of(Undefined.INSTANCE));
        // the SDK's deserializer also reads an empty array inside as undefined
        assertThat(PartitionKeyValue.fromHeader("[[]]")).isEqualTo(PartitionKeyValue.of(Undefined.INSTANCE));
        assertThat(PartitionKeyValue.fromHeader("[]")).isSameAs(PartitionKeyValue.EMPTY);
        assertThat(PartitionKeyValue.fromHeader(" [ ] ")).isEqualTo(PartitionKeyValue.EMPTY);
        assertThat(PartitionKeyValue.EMPTY.components()).isEmpty();
        assertThat(PartitionKeyValue.EMPTY.toJson()).isEqualTo("[]");
        assertThat(PartitionKeyValue.fromHeader("[{}]")).isNotEqualTo(PartitionKeyValue.fromHeader("[null]"));
    }

    @Test
    void nonAsciiEscapes() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"h\\u00E9llo\"]");
        assertThat(v.component(0)).isEqualTo(new Str("h\u00E9llo"));
        assertThat(v).isEqualTo(PartitionKeyValue.fromHeader("[\"h\u00E9llo\"]"));
        assertThat(v.toJson()).isEqualTo("[\"h\\u00E9llo\"]");
        assertThat(PartitionKeyValue.fromHeader("[\"\\uD83D\\uDE00\"]").component(0)).isEqualTo(new Str("\uD83D\uDE00"));
    }

    @Test
    void toJsonIsTheSdkHeaderForm() {
        assertThat(PartitionKeyValue.fromHeader("[\"a\",5]").toJson()).isEqualTo("[\"a\",5.0]");
        assertThat(PartitionKeyValue.fromHeader("[-1]").toJson()).isEqualTo("[-1.0]");
        assertThat(PartitionKeyValue.fromHeader("[{}]").toJson()).isEqualTo("[{}]");
        assertThat(PartitionKeyValue.fromHeader("[true,false,null]").toJson()).isEqualTo("[true,false,null]");
        assertThat(PartitionKeyValue.fromHeader("[\"tenant1\",42,true]").toJson()).isEqualTo("[\"tenant1\",42.0,true]");
        assertThat(PartitionKeyValue.of(new Str("q\"b\\s\n\u0001")).toJson()).isEqualTo("[\"q\\\"b\\\\s\\n\\u0001\"]");
    }

    @Test
    void toJsonRoundTrips() {
        for (String h : List.of("[\"a\",5.0]", "[{}]", "[]", "[\"h\\u00E9llo\"]", "[1.0E10]", "[-2.5E-7,null,true]",
                "[\"\\uD83D\\uDE00 \\\" \\\\\"]")) {
            PartitionKeyValue v = PartitionKeyValue.fromHeader(h);
            assertThat(PartitionKeyValue.fromHeader(v.toJson())).isEqualTo(v);
            assertThat(PartitionKeyValue.fromJson(json(v.toJson()))).isEqualTo(v);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"secret-value", "[\"secret-value\"", "\"secret-value\"", "{\"k\":\"secret-value\"}",
            "[\"secret-value\"] trailing", "[\"secret-value\",]", "[secret-value]", "['secret-value']", "",
            "   ", "[\"secret-value\"][]", "secret-value]", "5", "null"})
    void badHeadersAre400WithoutEchoingTheValue(String header) {
        assertBadRequestWithout(() -> PartitionKeyValue.fromHeader(header), "secret-value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[{\"secret-value\":1}]", "[{\"type\":\"secret-value\"}]", "[[\"secret-value\"]]",
            "[\"a\",[1,2]]", "[{\"a\":{}}]"})
    void objectsAndArraysInsideAre400(String header) {
        assertBadRequestWithout(() -> PartitionKeyValue.fromHeader(header), "secret-value");
        assertBadRequestWithout(() -> PartitionKeyValue.fromJson(json(header)), "secret-value");
    }

    @Test
    void numbersBeyondDoubleAre400() {
        assertBadRequestWithout(() -> PartitionKeyValue.fromHeader("[1e999]"), "1e999");
    }

    @Test
    void nullHeaderIs400() {
        assertBadRequestWithout(() -> PartitionKeyValue.fromHeader(null), "secret-value");
        assertBadRequestWithout(() -> PartitionKeyValue.fromJson(null), "secret-value");
        assertBadRequestWithout(() -> PartitionKeyValue.fromJson(json("{\"a\":\"secret-value\"}")), "secret-value");
    }

    @Test
    void fromJsonMatchesFromHeader() {
        String h = "[\"a\",5,true,null,{}]";
        assertThat(PartitionKeyValue.fromJson(json(h))).isEqualTo(PartitionKeyValue.fromHeader(h));
        assertThat(PartitionKeyValue.fromJson(json("[]"))).isEqualTo(PartitionKeyValue.EMPTY);
    }

    @Test
    void toStringNeverShowsValues() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"secret-value\",12345.5,true]");
        assertThat(v.toString()).doesNotContain("secret").doesNotContain("12345").doesNotContain("true")
                .contains("Str").contains("Num");
    }

    // -------------------------------------------------------------------------------------------- validateFor

    @Test
    void validateForAcceptsMatchingKeys() {
        PartitionKeyValue.fromHeader("[\"a\"]").validateFor(V2, LIMITS, true);
        PartitionKeyValue.fromHeader("[{}]").validateFor(V2, LIMITS, true);
        PartitionKeyValue.fromHeader("[\"t\",\"u\",\"s\"]").validateFor(MULTI, LIMITS, true);
        PartitionKeyValue.fromHeader("[\"t\"]").validateFor(MULTI, LIMITS, false);
        PartitionKeyValue.fromHeader("[\"t\",\"u\"]").validateFor(MULTI, LIMITS, false);
        PartitionKeyDefinition system = new PartitionKeyDefinition(List.of("/_partitionKey"), PartitionKind.HASH, 2,
                true);
        PartitionKeyValue.EMPTY.validateFor(system, LIMITS, true);
        PartitionKeyValue.fromHeader("[\"a\"]").validateFor(system, LIMITS, true);
        PartitionKeyValue.EMPTY.validateFor(new PartitionKeyDefinition(List.of(), PartitionKind.HASH, 2, false),
                LIMITS, true);
    }

    @Test
    void validateForRejectsWrongCounts() {
        assertMismatch(() -> PartitionKeyValue.fromHeader("[\"secret-value\",\"b\"]").validateFor(V2, LIMITS, true));
        assertMismatch(() -> PartitionKeyValue.fromHeader("[\"secret-value\",\"b\"]").validateFor(V2, LIMITS, false));
        assertMismatch(() -> PartitionKeyValue.EMPTY.validateFor(V2, LIMITS, true));
        assertMismatch(() -> PartitionKeyValue.EMPTY.validateFor(MULTI, LIMITS, false));
        assertMismatch(() -> PartitionKeyValue.fromHeader("[\"secret-value\"]").validateFor(MULTI, LIMITS, true));
        assertMismatch(() -> PartitionKeyValue.fromHeader("[\"secret-value\",1,2,3]").validateFor(MULTI, LIMITS,
                false));
        PartitionKeyDefinition noPaths = new PartitionKeyDefinition(List.of(), PartitionKind.HASH, 2, false);
        assertMismatch(() -> PartitionKeyValue.fromHeader("[\"secret-value\"]").validateFor(noPaths, LIMITS, true));
    }

    private static void assertMismatch(ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.subStatus()).isEqualTo(SubStatus.PARTITION_KEY_MISMATCH);
            assertThat(e.getMessage()).doesNotContain("secret-value");
        });
    }

    @Test
    void sizeLimitsPerHashVersion() {
        // V1 takes what V2 takes (it hashes only the first 101 bytes); text counts in UTF-8 bytes
        PartitionKeyValue.of(new Str("s".repeat(2048))).validateFor(V1, LIMITS, true);
        assertBadRequestWithout(() -> PartitionKeyValue.of(new Str("\u00E9".repeat(1025))).validateFor(V1, LIMITS, true),
                "\u00E9\u00E9");

        PartitionKeyValue.of(new Str("s".repeat(2048))).validateFor(V2, LIMITS, true);
        String big = "s".repeat(2049);
        assertBadRequestWithout(() -> PartitionKeyValue.of(new Str(big)).validateFor(V2, LIMITS, true), big);
        // MultiHash: the whole key counts
        PartitionKeyValue.of(new Str("s".repeat(1000)), new Str("s".repeat(1048))).validateFor(MULTI, LIMITS, false);
        assertBadRequestWithout(() -> PartitionKeyValue.of(new Str("s".repeat(1000)), new Str("s".repeat(1049)))
                .validateFor(MULTI, LIMITS, false), "sss");
        // the limits are the account's
        Limits small = Limits.DEFAULTS.toBuilder().maxPartitionKeyBytesV2(10).build();
        assertBadRequestWithout(() -> PartitionKeyValue.of(new Str("s".repeat(11))).validateFor(V2, small, true), "sss");
    }

    @Test
    void prefixes() {
        assertThat(PartitionKeyValue.fromHeader("[\"t\"]").isPrefixOf(MULTI)).isTrue();
        assertThat(PartitionKeyValue.fromHeader("[\"t\",\"u\"]").isPrefixOf(MULTI)).isTrue();
        assertThat(PartitionKeyValue.fromHeader("[\"t\",\"u\",\"s\"]").isPrefixOf(MULTI)).isFalse();
        assertThat(PartitionKeyValue.EMPTY.isPrefixOf(MULTI)).isFalse();
        assertThat(PartitionKeyValue.fromHeader("[\"t\"]").isPrefixOf(V2)).isFalse();
    }

    // ------------------------------------------------------------------------------------------------ extract

    @Test
    void extractFromHashItems() {
        assertThat(PartitionKeyValue.extract(V2, json("{\"id\":\"1\",\"pk\":\"a\"}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"a\"]"));
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":5}"))).isEqualTo(PartitionKeyValue.fromHeader("[5.0]"));
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":5.25}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[5.25]"));
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":9007199254740993}")).component(0))
                .isEqualTo(new Num(9007199254740993L));
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":false}"))).isEqualTo(PartitionKeyValue.of(Bool.FALSE));
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":null}"))).isEqualTo(PartitionKeyValue.of(Null.INSTANCE));
        // missing, object and array values are undefined (PartitionKeyHelper)
        PartitionKeyValue undefined = PartitionKeyValue.fromHeader("[{}]");
        assertThat(PartitionKeyValue.extract(V2, json("{\"id\":\"1\"}"))).isEqualTo(undefined);
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":{\"a\":1}}"))).isEqualTo(undefined);
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":{}}"))).isEqualTo(undefined);
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":[1,2]}"))).isEqualTo(undefined);
        // an integer beyond a long is not a number to the SDK either
        assertThat(PartitionKeyValue.extract(V2, json("{\"pk\":123456789012345678901234567890}"))).isEqualTo(undefined);
        // property names are case-sensitive
        assertThat(PartitionKeyValue.extract(V2, json("{\"PK\":\"a\"}"))).isEqualTo(undefined);
    }

    @Test
    void extractNestedPaths() {
        PartitionKeyDefinition nested = PartitionKeyDefinition.hash("/a/b");
        assertThat(PartitionKeyValue.extract(nested, json("{\"a\":{\"b\":\"x\"}}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"x\"]"));
        assertThat(PartitionKeyValue.extract(nested, json("{\"a\":{\"b\":{\"c\":1}}}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[{}]"));
        assertThat(PartitionKeyValue.extract(nested, json("{\"a\":{}}"))).isEqualTo(PartitionKeyValue.fromHeader("[{}]"));
        assertThat(PartitionKeyValue.extract(nested, json("{\"a\":\"b\"}"))).isEqualTo(PartitionKeyValue.fromHeader("[{}]"));
        assertThat(PartitionKeyValue.extract(nested, json("{\"a\":[{\"b\":1}]}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[{}]"));
        assertThat(PartitionKeyValue.extract(nested, json("{}"))).isEqualTo(PartitionKeyValue.fromHeader("[{}]"));
        PartitionKeyDefinition deep = PartitionKeyDefinition.hash("/a/b/c");
        assertThat(PartitionKeyValue.extract(deep, json("{\"a\":{\"b\":{\"c\":3}}}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[3]"));
        PartitionKeyDefinition quoted = PartitionKeyDefinition.hash("/\"odd name\"/x");
        assertThat(PartitionKeyValue.extract(quoted, json("{\"odd name\":{\"x\":true}}")))
                .isEqualTo(PartitionKeyValue.of(Bool.TRUE));
    }

    @Test
    void extractFromMultiHashItems() {
        assertThat(PartitionKeyValue.extract(MULTI,
                json("{\"tenantId\":\"tenant1\",\"userId\":\"user1\",\"sessionId\":\"session1\"}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"tenant1\",\"user1\",\"session1\"]"));
        assertThat(PartitionKeyValue.extract(MULTI, json("{\"tenantId\":\"tenant1\",\"userId\":42,\"sessionId\":true}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"tenant1\",42.0,true]"));
        // a missing level is undefined, as the service stores it (the SDKs send {} for it); so are objects and arrays
        assertThat(PartitionKeyValue.extract(MULTI, json("{\"tenantId\":\"t\",\"sessionId\":{\"x\":1}}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"t\",{},{}]"));
        assertThat(PartitionKeyValue.extract(MULTI, json("{\"tenantId\":\"t\",\"userId\":\"u\"}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"t\",\"u\",{}]"));
        assertThat(PartitionKeyValue.extract(MULTI, json("{\"tenantId\":[],\"userId\":null,\"sessionId\":\"s\"}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[{},null,\"s\"]"));
    }

    @Test
    void extractForSystemKeyAndPathlessContainers() {
        PartitionKeyDefinition system = new PartitionKeyDefinition(List.of("/_partitionKey"), PartitionKind.HASH, 1,
                true);
        assertThat(PartitionKeyValue.extract(system, json("{\"id\":\"1\"}"))).isSameAs(PartitionKeyValue.EMPTY);
        assertThat(PartitionKeyValue.extract(system, json("{\"_partitionKey\":\"p\"}")))
                .isEqualTo(PartitionKeyValue.fromHeader("[\"p\"]"));
        PartitionKeyDefinition none = new PartitionKeyDefinition(List.of(), PartitionKind.HASH, 2, false);
        assertThat(PartitionKeyValue.extract(none, json("{\"pk\":\"p\"}"))).isSameAs(PartitionKeyValue.EMPTY);
    }

    @Test
    void extractedKeysHashLikeTheHeader() {
        JsonNode item = json("{\"pk\":\"partitionKey\"}");
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.extract(V2, item)))
                .isEqualTo("013AEFCF77FA271571CF665A58C933F1");
        assertThat(EffectivePartitionKey.of(V1, PartitionKeyValue.extract(V1, item)))
                .isEqualTo("05C1E1B3D9CD2608716273756A756A706F4C667A00");
    }

    @Test
    void componentsListIsImmutable() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"a\"]");
        assertThatThrownBy(() -> v.components().set(0, Null.INSTANCE)).isInstanceOf(UnsupportedOperationException.class);
        Str[] arr = {new Str("a")};
        PartitionKeyValue w = PartitionKeyValue.of(arr);
        arr[0] = new Str("b");
        assertThat(w.component(0)).isEqualTo(new Str("a"));
    }
}
