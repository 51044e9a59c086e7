package dev.partita.cli.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.models.PartitionKeyBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Identities, checksums and keys computed from item content; the RU budget's pacing on a virtual clock. */
class ItemKeysTest {
    static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode parse(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    @Test
    void theChecksumIgnoresSystemPropertiesAndPropertyOrderButNotValues() throws Exception {
        ObjectNode a = parse("{\"id\":\"1\",\"t\":\"x\",\"o\":{\"b\":1,\"a\":[1,{\"d\":2,\"c\":3}]},"
                + "\"_rid\":\"r\",\"_etag\":\"\\\"e\\\"\",\"_ts\":5,\"_self\":\"s\",\"_attachments\":\"a\",\"_lsn\":9}");
        ObjectNode b = parse("{\"o\":{\"a\":[1,{\"c\":3,\"d\":2}],\"b\":1},\"t\":\"x\",\"id\":\"1\",\"_ts\":6}");
        ObjectNode c = parse("{\"o\":{\"a\":[{\"c\":3,\"d\":2},1],\"b\":1},\"t\":\"x\",\"id\":\"1\"}");
        assertThat(ItemKeys.checksum(a)).isEqualTo(ItemKeys.checksum(b)).hasSize(32);
        assertThat(ItemKeys.checksum(c)).as("array order matters").isNotEqualTo(ItemKeys.checksum(a));
        assertThat(ItemKeys.content(a).has("_rid")).isFalse();
        assertThat(ItemKeys.content(a).has("o")).isTrue();
    }

    @Test
    void theIdentityIsTheIdAndTheSourceKeyValues() throws Exception {
        List<String> key = List.of("/t", "/n/m");
        ObjectNode a = parse("{\"id\":\"1\",\"t\":\"x\",\"n\":{\"m\":2}}");
        ObjectNode b = parse("{\"id\":\"1\",\"t\":\"x\",\"n\":{\"m\":3}}");
        ObjectNode missing = parse("{\"id\":\"1\",\"t\":\"x\"}");
        ObjectNode nulled = parse("{\"id\":\"1\",\"t\":\"x\",\"n\":{\"m\":null}}");
        assertThat(List.of(a, b, missing, nulled).stream().map(i -> ItemKeys.identity(i, key)).distinct()).hasSize(4);
        assertThat(ItemKeys.idOf(ItemKeys.identity(a, key))).isEqualTo("1");
        assertThat(ItemKeys.partitionKey(a, key).toString())
                .isEqualTo(new PartitionKeyBuilder().add("x").add(2).build().toString());
        assertThat(ItemKeys.partitionKey(missing, List.of("/n/m")).toString())
                .isEqualTo(new PartitionKeyBuilder().addNoneValue().build().toString());
        assertThat(ItemKeys.segments("/\"a b\"/c")).containsExactly("a b", "c");
    }

    @Test
    void theBudgetWaitsUntilTheChargesFitTheRate() {
        long[] now = {1_000};
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now[0]);
            }
        };
        List<Long> sleeps = new ArrayList<>();
        RuBudget budget = new RuBudget(100, clock, ms -> {
            sleeps.add(ms);
            now[0] += ms;
        });
        budget.spend(50);      // due at 500 ms
        now[0] += 200;
        budget.spend(50);      // due at 1,000 ms
        now[0] += 2_000;       // idle: nothing owed
        budget.spend(10);
        assertThat(sleeps).containsExactly(500L, 300L);
        assertThat(budget.spent()).isEqualTo(110);
        RuBudget unlimited = new RuBudget(0, clock, ms -> {
            throw new AssertionError("no wait without a budget");
        });
        unlimited.spend(1e9);
        assertThat(Map.of("spent", unlimited.spent())).containsEntry("spent", 1e9);
    }
}
