package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.implementation.routing.PartitionKeyInternal;
import com.azure.cosmos.implementation.routing.PartitionKeyInternalHelper;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PartitionKeyDefinition;
import dev.partita.core.partition.PartitionKeyValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's EPK of hierarchical keys with undefined levels (what the SDKs send as {@code {}} for an item that lacks
 * a key property), and of the keys the engine extracts from such items, against the Java SDK's own hashing
 * ({@code PartitionKeyInternalHelper}).
 */
class UndefinedKeyLevelEpkTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> PATHS = List.of("/tenantId", "/userId", "/sessionId");

    private static com.azure.cosmos.models.PartitionKeyDefinition sdk(int levels) {
        com.azure.cosmos.models.PartitionKeyDefinition d = new com.azure.cosmos.models.PartitionKeyDefinition();
        d.setPaths(PATHS.subList(0, levels));
        d.setKind(PartitionKind.MULTI_HASH);
        d.setVersion(PartitionKeyDefinitionVersion.V2);
        return d;
    }

    private static PartitionKeyDefinition ours(int levels) {
        return PartitionKeyDefinition.multiHash(PATHS.subList(0, levels).toArray(String[]::new));
    }

    private static String sdkEpk(String header, int levels) {
        return PartitionKeyInternalHelper.getEffectivePartitionKeyString(PartitionKeyInternal.fromJsonString(header),
                sdk(levels));
    }

    @Test
    void undefinedLevelsHashAsTheSdkHashesThem() {
        List<String> twoLevels = List.of("[\"t1\",{}]", "[{},\"u1\"]", "[{},{}]", "[\"t1\",null]", "[42.0,{}]",
                "[true,{}]", "[{}]");
        for (String header : twoLevels) {
            assertThat(EffectivePartitionKey.of(ours(2), PartitionKeyValue.fromHeader(header))).as(header)
                    .isEqualTo(sdkEpk(header, 2));
        }
        List<String> threeLevels = List.of("[\"t1\",{},{}]", "[\"t1\",\"u1\",{}]", "[\"t1\",{},\"s1\"]",
                "[{},{},{}]", "[\"t1\",{}]");
        for (String header : threeLevels) {
            assertThat(EffectivePartitionKey.of(ours(3), PartitionKeyValue.fromHeader(header))).as(header)
                    .isEqualTo(sdkEpk(header, 3));
        }
        // an undefined level is not a null one
        assertThat(sdkEpk("[\"t1\",{}]", 2)).isNotEqualTo(sdkEpk("[\"t1\",null]", 2));
    }

    @Test
    void anItemWithoutALevelRoutesByTheKeyTheSdksSendForIt() throws Exception {
        for (String item : List.of("{\"id\":\"1\",\"tenantId\":\"t1\"}", "{\"id\":\"1\",\"userId\":\"u1\"}",
                "{\"id\":\"1\",\"tenantId\":\"t1\",\"userId\":{\"nested\":1}}")) {
            PartitionKeyValue extracted = PartitionKeyValue.extract(ours(2), JSON.readTree(item));
            assertThat(EffectivePartitionKey.of(ours(2), extracted)).as(item)
                    .isEqualTo(sdkEpk(extracted.toJson(), 2));
        }
        assertThat(PartitionKeyValue.extract(ours(2), JSON.readTree("{\"tenantId\":\"t1\"}")).toJson())
                .isEqualTo("[\"t1\",{}]");
    }
}
