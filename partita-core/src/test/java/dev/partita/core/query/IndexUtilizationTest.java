package dev.partita.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.json.Json;
import dev.partita.sql.Sql;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which indexes a query's filter and ORDER BY use, or would use: the index metrics the SDKs ask for. */
class IndexUtilizationTest {
    private static final IndexingPolicy POLICY = IndexingPolicy.parse(Json.parse("""
            {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],
             "excludedPaths":[{"path":"/secret/?"}],
             "compositeIndexes":[[{"path":"/name","order":"ascending"},{"path":"/age","order":"descending"}]]}
            """, "policy"));

    private static IndexUtilization of(String query) {
        return IndexUtilization.of(Sql.parse(query), Map.of(), POLICY);
    }

    private static List<String> specs(List<IndexUtilization.Single> singles) {
        return singles.stream().map(IndexUtilization.Single::indexSpec).toList();
    }

    @Test
    void anOrderByAfterAnEqualityIsServedByTheCompositeIndexInEitherDirection() {
        assertThat(of("SELECT * FROM c WHERE c.name = 'x' ORDER BY c.name, c.age DESC").utilizedComposite())
                .containsExactly(new IndexUtilization.Composite(List.of("/name ASC", "/age DESC")));
        assertThat(of("SELECT * FROM c WHERE c.name = 'x' ORDER BY c.age DESC").utilizedComposite())
                .containsExactly(new IndexUtilization.Composite(List.of("/name ASC", "/age DESC")));
        assertThat(of("SELECT * FROM c ORDER BY c.name DESC, c.age ASC").utilizedComposite())
                .containsExactly(new IndexUtilization.Composite(List.of("/name DESC", "/age ASC")));
    }

    @Test
    void aCompositeTheQueryWouldNeedIsPotential() {
        IndexUtilization u = of("SELECT * FROM c WHERE c.age = 3 ORDER BY c.name");
        assertThat(u.utilizedComposite()).isEmpty();
        assertThat(u.potentialComposite())
                .containsExactly(new IndexUtilization.Composite(List.of("/age ASC", "/name ASC")));
        assertThat(specs(u.utilizedSingle())).containsExactly("/age/?");
    }

    @Test
    void oneFilterPathNeedsNoComposite() {
        IndexUtilization u = of("SELECT * FROM c WHERE c.secret = 1 AND c.secret != 2");
        assertThat(specs(u.potentialSingle())).containsExactly("/secret/?");
        assertThat(u.utilizedSingle()).isEmpty();
        assertThat(u.utilizedComposite()).isEmpty();
        assertThat(u.potentialComposite()).isEmpty();
        assertThat(of("SELECT * FROM c").toJson().toString()).isEqualTo("{\"UtilizedSingleIndexes\":[],"
                + "\"PotentialSingleIndexes\":[],\"UtilizedCompositeIndexes\":[],\"PotentialCompositeIndexes\":[]}");
    }
}
