package dev.partita.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue.Bool;
import dev.partita.core.partition.PartitionKeyValue.Component;
import dev.partita.core.partition.PartitionKeyValue.Null;
import dev.partita.core.partition.PartitionKeyValue.Num;
import dev.partita.core.partition.PartitionKeyValue.Str;
import dev.partita.core.partition.PartitionKeyValue.Undefined;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The test vectors of protocol.md §5.5 and of the SDK's own {@code PartitionKeyHashingTests}. */
class EffectivePartitionKeyTest {

    static final PartitionKeyDefinition V1 = PartitionKeyDefinition.hashV1("/pk");
    static final PartitionKeyDefinition V2 = PartitionKeyDefinition.hash("/pk");
    static final PartitionKeyDefinition MULTI = PartitionKeyDefinition.multiHash("/tenantId", "/userId", "/sessionId");

    static final String A150 = "a".repeat(150);
    static final String A1024 = "a".repeat(1024);
    static final String V1_LONG_A = "05C1EB5921F70608" + "62".repeat(100) + "00";

    /** protocol.md §5.5 table: header, V1 EPK, V2 EPK. */
    static Stream<Arguments> docTable() {
        return Stream.of(
                Arguments.of("[\"\"]", "05C1CF33970FF80800", "32E9366E637A71B4E710384B2F4970A0"),
                Arguments.of("[\"partitionKey\"]", "05C1E1B3D9CD2608716273756A756A706F4C667A00",
                        "013AEFCF77FA271571CF665A58C933F1"),
                Arguments.of("[\"customer-1\"]", "05C1CB9157D5580864767475706E66732E3200",
                        "0D75879DE504351131D20D2D2A4B0BA6"),
                Arguments.of("[\"h\\u00E9llo\"]", "05C1CF2F2395980869C4AA6D6D7000", "029ACA93BF00D120BC875CAD8F9A5F01"),
                Arguments.of("[\"" + A150 + "\"]", V1_LONG_A, "319C4E8C8F7247700B7F8E38B72390B6"),
                Arguments.of("[\"" + A1024 + "\"]", V1_LONG_A, "332BDF5512AE49615F32C7D98C2DB86C"),
                Arguments.of("[5.0]", "05C1D9C1C5517C05C014", "19C08621B135968252FB34B4CF66F811"),
                Arguments.of("[5.5]", "05C1D7A771716C05C016", "0E2EE47829D1AF775EEFB6540FD1D0ED"),
                Arguments.of("[-1.0]", "05C1D1A5BDDF9C054010", "19938E7A936C1C5B9E3AE842BBC16839"),
                Arguments.of("[0.0]", "05C1BF6DA11560058000", "155B95BEDAC4B1E9EC1CDC9BB0DDDE58"),
                Arguments.of("[true]", "05C1D7C5A903D803", "0E711127C5B5A8E4726AC6DD306A3E59"),
                Arguments.of("[false]", "05C1DB857D857C02", "2FE1BE91E90A3439635E0E9E37361EF2"),
                Arguments.of("[null]", "05C1ED45D7475601", "378867E4430E67857ACE5C908374FE16"),
                Arguments.of("[{}]", "05C1D529E345DC00", "11622DAA78F835834610ABE56EFF5CB5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("docTable")
    void protocolDocVectors(String header, String v1, String v2) {
        PartitionKeyValue value = PartitionKeyValue.fromHeader(header);
        assertThat(EffectivePartitionKey.of(V1, value)).isEqualTo(v1);
        assertThat(EffectivePartitionKey.of(V2, value)).isEqualTo(v2);
    }

    /** The numeric MIN/MAX vectors of the SDK's PartitionKeyHashingTests (doc §5.5 quotes two of them). */
    static Stream<Arguments> sdkNumberVectors() {
        return Stream.of(
                Arguments.of((double) Byte.MIN_VALUE, "05C1D73349F54C053FA0", "01DAEDABF913540367FE219B2AD06148"),
                Arguments.of((double) Byte.MAX_VALUE, "05C1DD539DDFCC05C05FE0", "0C507ACAC853ECA7977BF4CEFB562A25"),
                Arguments.of((double) Long.MIN_VALUE, "05C1DB35F33D1C053C20", "23D5C6395512BDFEAFADAD15328AD2BB"),
                Arguments.of((double) Long.MAX_VALUE, "05C1B799AB2DD005C3E0", "2EDB959178DFCCA18983F89384D1629B"),
                Arguments.of((double) Integer.MIN_VALUE, "05C1DFBF252BCC053E20", "0B1660D5233C3171725B30D4A5F4CC1F"),
                Arguments.of((double) Integer.MAX_VALUE, "05C1E1F503DFB205C1DFFFFFFFFC",
                        "2D9349D64712AEB5EB1406E2F0BE2725"),
                Arguments.of(Double.MIN_VALUE, "05C1E5C91F4D3005800101010101010102", "0E6CBA63A280927DE485DEF865800139"),
                Arguments.of(Double.MAX_VALUE, "05C1CBE367C53005FFEFFFFFFFFFFFFFFE",
                        "31424D996457102634591FF245DBCC4D"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sdkNumberVectors")
    void sdkMinMaxNumberVectors(double number, String v1, String v2) {
        PartitionKeyValue value = PartitionKeyValue.of(new Num(number));
        assertThat(EffectivePartitionKey.of(V1, value)).isEqualTo(v1);
        assertThat(EffectivePartitionKey.of(V2, value)).isEqualTo(v2);
        // the same through the header the SDK would send
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.fromHeader("[" + number + "]"))).isEqualTo(v2);
    }

    @Test
    void sdkStringAndSpecialVectorsAlsoFromComponents() {
        assertThat(EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(A1024)))).isEqualTo(V1_LONG_A);
        assertThat(EffectivePartitionKey.of(V1, PartitionKeyValue.of(Null.INSTANCE))).isEqualTo("05C1ED45D7475601");
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.of(Undefined.INSTANCE)))
                .isEqualTo("11622DAA78F835834610ABE56EFF5CB5");
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.of(Bool.TRUE)))
                .isEqualTo("0E711127C5B5A8E4726AC6DD306A3E59");
    }

    static final String T1 = "0DAE0B8467B011E957BC0B8B0DEB5ACA";
    static final String U1 = "236A5BE3329A7AD57D4B998E8602BD7B";
    static final String S1 = "3968A88FC4D9F7E8A7CC60434EE850D5";

    @Test
    void multiHashFullKey() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"tenant1\",\"user1\",\"session1\"]");
        assertThat(EffectivePartitionKey.of(MULTI, v)).isEqualTo(T1 + U1 + S1).hasSize(96);
    }

    @Test
    void multiHashPrefixes() {
        PartitionKeyValue two = PartitionKeyValue.fromHeader("[\"tenant1\",\"user1\"]");
        PartitionKeyValue one = PartitionKeyValue.fromHeader("[\"tenant1\"]");
        assertThat(EffectivePartitionKey.of(MULTI, two)).isEqualTo(T1 + U1);
        assertThat(EffectivePartitionKey.of(MULTI, one)).isEqualTo(T1);
        EpkRange range = EpkRange.forPrefix(EffectivePartitionKey.of(MULTI, one));
        assertThat(range).isEqualTo(new EpkRange(T1, T1 + "FF"));
        assertThat(range.contains(T1 + U1 + S1)).isTrue();
        assertThat(range.contains(EffectivePartitionKey.of(MULTI, two))).isTrue();
    }

    @Test
    void multiHashMixedTypes() {
        PartitionKeyValue v = PartitionKeyValue.fromHeader("[\"tenant1\",42.0,true]");
        assertThat(EffectivePartitionKey.of(MULTI, v)).isEqualTo(
                "0DAE0B8467B011E957BC0B8B0DEB5ACA08E6D561F6FD951DCC25E7E4EA2884B50E711127C5B5A8E4726AC6DD306A3E59");
        // each level is the V2 hash of that component alone
        assertThat(EffectivePartitionKey.of(MULTI, v).substring(64))
                .isEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.of(Bool.TRUE)));
        assertThat(EffectivePartitionKey.of(MULTI, PartitionKeyValue.fromHeader("[\"tenant1\",42,true]")))
                .isEqualTo(EffectivePartitionKey.of(MULTI, v));
    }

    @Test
    void singleLevelMultiHashEqualsV2() {
        PartitionKeyDefinition one = PartitionKeyDefinition.multiHash("/pk");
        for (String h : List.of("[\"partitionKey\"]", "[5.0]", "[null]", "[{}]")) {
            PartitionKeyValue v = PartitionKeyValue.fromHeader(h);
            assertThat(EffectivePartitionKey.of(one, v)).isEqualTo(EffectivePartitionKey.of(V2, v));
        }
    }

    @Test
    void emptyKeyIsMinForEveryDefinition() {
        PartitionKeyDefinition system = new PartitionKeyDefinition(List.of("/_partitionKey"), PartitionKind.HASH, 1, true);
        PartitionKeyDefinition none = new PartitionKeyDefinition(List.of(), PartitionKind.HASH, 2, false);
        for (PartitionKeyDefinition def : List.of(V1, V2, MULTI, system, none)) {
            assertThat(EffectivePartitionKey.of(def, PartitionKeyValue.EMPTY)).isEqualTo(EffectivePartitionKey.MIN)
                    .isEmpty();
        }
        assertThat(EffectivePartitionKey.MAX).isEqualTo("FF");
    }

    @Test
    void numbersAreComparedAsDoubles() {
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.fromHeader("[5]")))
                .isEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.fromHeader("[5.0]")))
                .isEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.fromHeader("[5e0]")));
        // -0.0 has other bits than 0.0: the SDK hashes them differently, and so do we
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Num(-0.0))))
                .isNotEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Num(0.0))));
    }

    @Test
    void v2KeysAre32UppercaseHexBelowFF() {
        for (int i = 0; i < 2000; i++) {
            String epk = EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Str("k" + i)));
            assertThat(epk).hasSize(32).matches("[0-3][0-9A-F]{31}");
            assertThat(epk.compareTo(EffectivePartitionKey.MAX)).isNegative();
        }
    }

    @Test
    void v1EncodesOnly101BytesOfMultiByteText() {
        // 60 x U+00E9 is 120 UTF-8 bytes in 60 chars: not cut by the 100-char rule, cut to 101 bytes by the encoding
        String s = "\u00E9".repeat(60);
        String epk = EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(s)));
        String stringPart = epk.substring(epk.indexOf("08", 2) + 2);
        assertThat(stringPart).hasSize(202).doesNotEndWith("00");
        assertThat(stringPart).startsWith("C4AA");
    }

    @Test
    void v1HashesOnlyTheFirst100Chars() {
        String base = "x".repeat(100);
        assertThat(EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(base + "A"))))
                .isEqualTo(EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(base + "B"))));
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Str(base + "A"))))
                .isNotEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Str(base + "B"))));
    }

    @Test
    void unpairedSurrogatesHashLikeJavaUtf8() {
        // a surrogate pair cut by the 100-char truncation becomes '?', as String.getBytes(UTF_8) does
        String cut = "x".repeat(99) + "\uD83D\uDE00";
        String replaced = "x".repeat(99) + "?";
        assertThat(EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(cut))))
                .isEqualTo(EffectivePartitionKey.of(V1, PartitionKeyValue.of(new Str(replaced))));
        assertThat(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Str("a\uD800b"))))
                .isEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.of(new Str("a?b"))));
    }

    @Test
    void rangeKindIsTheUnhashedBinaryEncoding() {
        PartitionKeyDefinition range = new PartitionKeyDefinition(List.of("/pk"), PartitionKind.RANGE, 1, false);
        assertThat(EffectivePartitionKey.of(range, PartitionKeyValue.fromHeader("[\"ab\"]"))).isEqualTo("08626300");
        assertThat(EffectivePartitionKey.of(range, PartitionKeyValue.fromHeader("[true]"))).isEqualTo("03");
        assertThat(EffectivePartitionKey.of(range, PartitionKeyValue.fromHeader("[5]"))).isEqualTo("05C014");
    }

    @Test
    void wrongComponentCountIs400() {
        PartitionKeyValue two = PartitionKeyValue.fromHeader("[\"a\",\"b\"]");
        assertThatThrownBy(() -> EffectivePartitionKey.of(V2, two)).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(400));
        PartitionKeyValue four = PartitionKeyValue.fromHeader("[\"a\",\"b\",\"c\",\"d\"]");
        assertThatThrownBy(() -> EffectivePartitionKey.of(MULTI, four)).isInstanceOf(ServiceException.class);
        PartitionKeyDefinition twoPathRange = new PartitionKeyDefinition(List.of("/a", "/b"), PartitionKind.RANGE, 1,
                false);
        assertThatThrownBy(() -> EffectivePartitionKey.of(twoPathRange, PartitionKeyValue.fromHeader("[1]")))
                .isInstanceOf(ServiceException.class);
    }

    @Test
    void componentsOfAllTypesHashDeterministically() {
        List<Component> all = List.of(Undefined.INSTANCE, Null.INSTANCE, Bool.TRUE, Bool.FALSE, new Num(1.5), new Str("s"));
        for (Component c : all) {
            PartitionKeyValue v = PartitionKeyValue.of(c);
            assertThat(EffectivePartitionKey.of(V2, v)).isEqualTo(EffectivePartitionKey.of(V2, PartitionKeyValue.of(c)));
        }
    }
}
