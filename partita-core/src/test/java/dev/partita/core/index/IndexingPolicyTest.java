package dev.partita.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing, validation and path precedence of indexing policies. */
class IndexingPolicyTest {

    static IndexingPolicy policy(String json) {
        return IndexingPolicy.parse(Json.parse(json, "policy"));
    }

    static List<Object> path(Object... steps) {
        return List.of(steps);
    }

    @Test
    void theDefaultPolicyIndexesEverythingButTheEtag() {
        IndexingPolicy p = IndexingPolicy.DEFAULT;
        assertThat(p.isIndexing()).isTrue();
        assertThat(p.indexes(path("a"))).isTrue();
        assertThat(p.indexes(path("a", "b", 3, "c"))).isTrue();
        assertThat(p.indexes(path("_etag"))).isFalse();
        assertThat(p.indexes(path("x", "_etag"))).isTrue();
    }

    @Test
    void theMorePrecisePathWins() {
        IndexingPolicy p = policy("""
                {"includedPaths":[{"path":"/*"},{"path":"/category/name/?"}],
                 "excludedPaths":[{"path":"/category/*"},{"path":"/tags/[]/?"}]}""");
        assertThat(p.indexes(path("category", "name"))).isTrue();
        assertThat(p.indexes(path("category", "id"))).isFalse();
        assertThat(p.indexes(path("category", "name", "x"))).isFalse();
        assertThat(p.indexes(path("tags", 0))).isFalse();
        assertThat(p.indexes(path("tags", "0"))).isTrue();
        assertThat(p.indexes(path("other"))).isTrue();
    }

    @Test
    void aScalarPathBeatsASubtreeOfTheSameDepth() {
        IndexingPolicy p = policy("""
                {"includedPaths":[{"path":"/a/?"}],"excludedPaths":[{"path":"/*"},{"path":"/a/*"}]}""");
        assertThat(p.indexes(path("a"))).isTrue();
        assertThat(p.indexes(path("a", "b"))).isFalse();
        assertThat(p.indexes(path("b"))).isFalse();
    }

    @Test
    void idAndTsAreAlwaysIndexedUnlessIndexingIsOff() {
        IndexingPolicy excludeAll = policy("{\"includedPaths\":[],\"excludedPaths\":[{\"path\":\"/*\"}]}");
        assertThat(excludeAll.indexes(path("id"))).isTrue();
        assertThat(excludeAll.indexes(path("_ts"))).isTrue();
        assertThat(excludeAll.indexes(path("name"))).isFalse();
        IndexingPolicy none = policy("{\"indexingMode\":\"none\",\"automatic\":false}");
        assertThat(none.isIndexing()).isFalse();
        assertThat(none.indexes(path("id"))).isFalse();
    }

    @Test
    void aQuotedWildcardIsAName() {
        IndexingPolicy p = policy("""
                {"includedPaths":[{"path":"/\\"*\\"/?"}],"excludedPaths":[{"path":"/*"}]}""");
        assertThat(p.indexes(path("*"))).isTrue();
        assertThat(p.indexes(path("a"))).isFalse();
    }

    @Test
    void quotedNamesAndArrayStepsParse() {
        IndexingPolicy p = policy("""
                {"includedPaths":[{"path":"/\\"a b\\"/[]/c/?"}],"excludedPaths":[{"path":"/*"}]}""");
        assertThat(p.indexes(path("a b", 2, "c"))).isTrue();
        assertThat(p.indexes(path("a b", "2", "c"))).isFalse();
    }

    @Test
    void compositeIndexesAreParsedWithTheirDirections() {
        IndexingPolicy p = policy("""
                {"includedPaths":[{"path":"/*"}],"compositeIndexes":[[{"path":"/name"},
                 {"path":"/age","order":"descending"}]],"spatialIndexes":[{"path":"/loc/*","types":["Point"]}]}""");
        assertThat(p.compositeIndexes()).hasSize(1);
        assertThat(p.compositeIndexes().get(0)).containsExactly(
                new IndexingPolicy.CompositePath(List.of("name"), false),
                new IndexingPolicy.CompositePath(List.of("age"), true));
    }

    @Test
    void badPoliciesAre400sThatNameTheProblem() {
        String unparsable = "could not be accepted, failed near position ";
        for (String[] bad : new String[][] {
                {"{\"includedPaths\":[{\"path\":\"a/?\"}]}", unparsable + "'0'"},
                {"{\"includedPaths\":[{\"path\":\"/a\"}]}", unparsable + "'1'"},
                {"{\"includedPaths\":[{\"path\":\"/a/*/b/?\"}]}", unparsable + "'3'"},
                {"{\"includedPaths\":[{\"path\":\"/a b/?\"}]}", unparsable + "'2'"},
                {"{\"includedPaths\":[{\"path\":\"/?\"}]}", unparsable + "'1'"},
                {"{\"includedPaths\":[{\"path\":\"/a//?\"}]}", unparsable + "'3'"},
                {"{\"includedPaths\":[{\"path\":\"/\\\"a/?\"}]}", unparsable + "'5'"},
                {"{\"includedPaths\":[{\"path\":\"/a/?\"}]}", "The special mandatory indexing path \"/\" is not"
                        + " provided in any of the path type sets. Please provide this path in one of the sets."},
                {"{\"includedPaths\":[{\"path\":\"/*\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}", "both included"},
                {"{\"includedPaths\":[{\"path\":\"/*\"},{\"path\":\"/a/?\"},{\"path\":\"/\\\"a\\\"/?\"}]}",
                        "appears twice"},
                {"{\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":[[{\"path\":\"/a\"}]]}", "2 to 8"},
                {"{\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":[[{\"path\":\"/a/?\"},"
                        + "{\"path\":\"/b\"}]]}",
                        unparsable + "'3'"},
                {"{\"includedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":[[{\"path\":\"/a\",\"order\":\"up\"},"
                        + "{\"path\":\"/b\"}]]}", "'ascending' or"},
                {"{\"includedPaths\":{}}", "must be an array"}}) {
            assertThatThrownBy(() -> policy(bad[0])).as(bad[0])
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400))
                    .hasMessageContaining(bad[1]);
        }
    }
}
