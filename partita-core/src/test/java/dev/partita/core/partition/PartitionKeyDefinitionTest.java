package dev.partita.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionKeyDefinitionTest {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static JsonNode json(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static PartitionKeyDefinition parse(String s) {
        return PartitionKeyDefinition.fromJson(json(s), Limits.DEFAULTS);
    }

    @Test
    void whatTheJavaSdkSendsBecomesV1() {
        // the SDKs send no version unless asked, and the service makes such a container V1
        PartitionKeyDefinition d = parse("{\"kind\":\"Hash\",\"paths\":[\"/pk\"]}");
        assertThat(d).isEqualTo(new PartitionKeyDefinition(List.of("/pk"), PartitionKind.HASH, 1, false));
        assertThat(d.levels()).isEqualTo(1);
        assertThat(d.toJson().toString()).isEqualTo("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":1}");
    }

    @Test
    void versions() {
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":1}").version()).isEqualTo(1);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":2}").version()).isEqualTo(2);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":\"1\"}").version()).isEqualTo(1);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":\"2\"}").version()).isEqualTo(2);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":\"V2\"}").version()).isEqualTo(2);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":\"V1\"}").version()).isEqualTo(1);
        assertThat(parse("{\"paths\":[\"/pk\"],\"kind\":\"Hash\",\"version\":null}").version()).isEqualTo(1);
        assertThat(parse("{\"paths\":[\"/pk\"],\"version\":1}").kind()).isEqualTo(PartitionKind.HASH);
        // MultiHash is always V2
        assertThat(parse("{\"paths\":[\"/a\",\"/b\"],\"kind\":\"MultiHash\",\"version\":1}").version()).isEqualTo(2);
        assertThat(PartitionKeyDefinition.multiHash("/a").version()).isEqualTo(2);
        assertThat(new PartitionKeyDefinition(List.of("/a"), PartitionKind.MULTI_HASH, 1, false).version()).isEqualTo(2);
    }

    @Test
    void multiHashAndSystemKeyRoundTrip() {
        PartitionKeyDefinition m = parse("{\"paths\":[\"/tenantId\",\"/userId\",\"/sessionId\"],\"kind\":\"MultiHash\","
                + "\"version\":2}");
        assertThat(m.kind()).isEqualTo(PartitionKind.MULTI_HASH);
        assertThat(m.levels()).isEqualTo(3);
        assertThat(m.toJson().toString()).isEqualTo(
                "{\"paths\":[\"/tenantId\",\"/userId\",\"/sessionId\"],\"kind\":\"MultiHash\",\"version\":2}");
        assertThat(PartitionKeyDefinition.fromJson(m.toJson(), Limits.DEFAULTS)).isEqualTo(m);

        PartitionKeyDefinition s = parse("{\"paths\":[\"/_partitionKey\"],\"kind\":\"Hash\",\"systemKey\":true}");
        assertThat(s.systemKey()).isTrue();
        assertThat(s.toJson().get("systemKey").booleanValue()).isTrue();
        assertThat(PartitionKeyDefinition.fromJson(s.toJson(), Limits.DEFAULTS)).isEqualTo(s);
        assertThat(parse("{\"paths\":[],\"kind\":\"Hash\",\"systemKey\":true}").levels()).isZero();
        assertThat(parse("{\"paths\":[\"/pk\"],\"systemKey\":false}").toJson().has("systemKey")).isFalse();
    }

    @Test
    void kinds() {
        assertThat(PartitionKind.fromWire("Hash")).isEqualTo(PartitionKind.HASH);
        assertThat(PartitionKind.fromWire("Range")).isEqualTo(PartitionKind.RANGE);
        assertThat(PartitionKind.fromWire("MultiHash")).isEqualTo(PartitionKind.MULTI_HASH);
        assertThat(PartitionKind.fromWire("multihash")).isEqualTo(PartitionKind.MULTI_HASH);
        assertThat(PartitionKind.fromWire("MULTI_HASH")).isEqualTo(PartitionKind.MULTI_HASH);
        assertThat(PartitionKind.MULTI_HASH.wireName()).isEqualTo("MultiHash");
        assertThat(PartitionKind.HASH.wireName()).isEqualTo("Hash");
        assertThat(PartitionKind.RANGE.wireName()).isEqualTo("Range");
        assertThatThrownBy(() -> PartitionKind.fromWire("Spatial")).isInstanceOf(ServiceException.class);
        assertThatThrownBy(() -> PartitionKind.fromWire(null)).isInstanceOf(ServiceException.class);
    }

    @Test
    void nestedAndQuotedPaths() {
        assertThat(parse("{\"paths\":[\"/address/zipCode\"]}").paths()).containsExactly("/address/zipCode");
        assertThat(parse("{\"paths\":[\"/\\\"a b\\\"/c\"]}").levels()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "null",
        "\"/pk\"",
        "[\"/pk\"]",
        "{}",
        "{\"paths\":[]}",
        "{\"paths\":\"/pk\"}",
        "{\"paths\":[5]}",
        "{\"paths\":[\"pk\"]}",
        "{\"paths\":[\"/\"]}",
        "{\"paths\":[\"/a//b\"]}",
        "{\"paths\":[\"/\\\"unclosed\"]}",
        "{\"paths\":[\"/a\",\"/b\"],\"kind\":\"Hash\"}",
        "{\"paths\":[\"/a\",\"/b\"],\"kind\":\"Range\"}",
        "{\"paths\":[\"/a\",\"/b\",\"/c\",\"/d\"],\"kind\":\"MultiHash\"}",
        "{\"paths\":[],\"kind\":\"MultiHash\"}",
        "{\"paths\":[\"/a\",\"/a\"],\"kind\":\"MultiHash\"}",
        "{\"paths\":[\"/pk\"],\"kind\":\"Spatial\"}",
        "{\"paths\":[\"/pk\"],\"kind\":5}",
        "{\"paths\":[\"/pk\"],\"version\":3}",
        "{\"paths\":[\"/pk\"],\"version\":0}",
        "{\"paths\":[\"/pk\"],\"version\":\"V3\"}",
        "{\"paths\":[\"/pk\"],\"version\":1.5}",
        "{\"paths\":[\"/pk\"],\"version\":true}",
        "{\"paths\":[\"/pk\"],\"systemKey\":\"yes\"}"
    })
    void invalidDefinitionsAre400(String body) {
        JsonNode node = json(body);
        assertThatThrownBy(() -> PartitionKeyDefinition.fromJson(node, Limits.DEFAULTS))
                .isInstanceOfSatisfying(ServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isNotBlank();
                });
    }

    @Test
    void missingNodeIs400() {
        assertThatThrownBy(() -> PartitionKeyDefinition.fromJson(null, Limits.DEFAULTS))
                .isInstanceOf(ServiceException.class);
    }

    @Test
    void hierarchicalLevelLimitComesFromLimits() {
        Limits two = Limits.DEFAULTS.toBuilder().maxHierarchicalKeyLevels(2).build();
        JsonNode three = json("{\"paths\":[\"/a\",\"/b\",\"/c\"],\"kind\":\"MultiHash\"}");
        assertThatThrownBy(() -> PartitionKeyDefinition.fromJson(three, two)).isInstanceOf(ServiceException.class);
        assertThat(PartitionKeyDefinition.fromJson(three, Limits.DEFAULTS).levels()).isEqualTo(3);
    }

    @Test
    void recordIsImmutableAndValidated() {
        java.util.ArrayList<String> paths = new java.util.ArrayList<>(List.of("/pk"));
        PartitionKeyDefinition d = new PartitionKeyDefinition(paths, PartitionKind.HASH, 2, false);
        paths.add("/other");
        assertThat(d.paths()).containsExactly("/pk");
        assertThatThrownBy(() -> new PartitionKeyDefinition(List.of("/pk"), PartitionKind.HASH, 3, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(PartitionKeyDefinition.hashV1("/pk").version()).isEqualTo(1);
    }
}
