package dev.partita.core;

import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.account.Throughput;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.item.ItemResult;
import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RocksEngineTest extends EngineContractTest {
    @Override
    protected Store openStore(Path dir) {
        return RocksStore.open(dir);
    }

    @Test
    void catalogItemsAndLsnsSurviveARestart() {
        container("{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]},\"defaultTtl\":-1}");
        ItemResult first = items().create(bytes("{\"id\":\"1\",\"pk\":\"a\"}"), RequestOptions.NONE);
        engine.split(engine.readContainer("db", "c"), "0");
        engine.close();
        engine = Engine.open(openStore(tmp), clock, Limits.DEFAULTS, EngineContractTest::testCondition);
        assertThat(engine.readContainer("db", "c").partitions().size()).isEqualTo(2);
        assertThat(engine.readContainer("db", "c").defaultTtl()).isEqualTo(-1);
        ItemResult read = items().read("1", RequestOptions.of(pk("[\"a\"]")));
        assertThat(read.item().json()).isEqualTo(first.item().json());
        ItemResult next = items().create(bytes("{\"id\":\"2\",\"pk\":\"a\"}"), RequestOptions.NONE);
        assertThat(next.lsn()).isEqualTo(first.lsn() + 1);
        engine.createDatabase(json("{\"id\":\"db2\"}"), Throughput.NONE);
        assertThat(engine.readDatabase("db2").rid()).isNotEqualTo(engine.readDatabase("db").rid());
    }
}
