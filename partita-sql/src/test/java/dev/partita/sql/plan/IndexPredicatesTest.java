package dev.partita.sql.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.partita.sql.Sql;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which WHERE conjuncts an index can answer, read from the AST. */
class IndexPredicatesTest {
    static final JsonNodeFactory N = JsonNodeFactory.instance;

    /** As text: numeric nodes of different Java types print alike but are not equal. */
    static String of(String query, Map<String, JsonNode> params) {
        return IndexPredicates.of(Sql.parse(query).ast(), params).toString();
    }

    static String of(String query) {
        return of(query, Map.of());
    }

    static String expect(IndexPredicates.Predicate... predicates) {
        return List.of(predicates).toString();
    }

    @Test
    void equalitiesInListsRangesAndPrefixesOnTheRootAliasAreSargable() {
        assertThat(of("SELECT * FROM c WHERE c.a.b = 1")).isEqualTo(expect(
                new IndexPredicates.Equal(List.of("a", "b"), List.of(N.numberNode(1)))));
        assertThat(of("SELECT * FROM root r WHERE 'x' = r[\"na me\"]")).isEqualTo(expect(
                new IndexPredicates.Equal(List.of("na me"), List.of(N.textNode("x")))));
        assertThat(of("SELECT * FROM c WHERE c.a IN (1, 'two', null)")).isEqualTo(expect(
                new IndexPredicates.Equal(List.of("a"), List.of(N.numberNode(1), N.textNode("two"), N.nullNode()))));
        assertThat(of("SELECT * FROM c WHERE c.n > 3 AND c.n <= 9")).isEqualTo(expect(
                new IndexPredicates.Range(List.of("n"), N.numberNode(3), false, N.numberNode(9), true)));
        assertThat(of("SELECT * FROM c WHERE 3 > c.n")).isEqualTo(expect(
                new IndexPredicates.Range(List.of("n"), null, false, N.numberNode(3), false)));
        assertThat(of("SELECT * FROM c WHERE c.n BETWEEN -1 AND 4")).isEqualTo(expect(
                new IndexPredicates.Range(List.of("n"), N.numberNode(-1), true, N.numberNode(4), true)));
        assertThat(of("SELECT * FROM c WHERE STARTSWITH(c.s, @p, false)", Map.of("@p", N.textNode("ab"))))
                .isEqualTo(expect(new IndexPredicates.Prefix(List.of("s"), "ab")));
    }

    @Test
    void conjunctsUnderJoinsStillFilterItems() {
        assertThat(of("SELECT t FROM c JOIN t IN c.tags WHERE c.a = 1 AND t = 'x'")).isEqualTo(expect(
                new IndexPredicates.Equal(List.of("a"), List.of(N.numberNode(1)))));
    }

    @Test
    void whatAnIndexCannotAnswerIsLeftToTheScan() {
        for (String q : List.of(
                "SELECT * FROM c WHERE c.a = 1 OR c.b = 2",
                "SELECT * FROM c WHERE NOT (c.a = 1)",
                "SELECT * FROM c WHERE c.a != 1",
                "SELECT * FROM c WHERE c.a NOT IN (1, 2)",
                "SELECT * FROM c WHERE c.a = [1]",
                "SELECT * FROM c WHERE c.a = c.b",
                "SELECT * FROM c WHERE LOWER(c.a) = 'x'",
                "SELECT * FROM c WHERE CONTAINS(c.s, c.t)",
                "SELECT * FROM c WHERE CONTAINS(LOWER(c.s), 'a')",
                "SELECT * FROM c WHERE NOT CONTAINS(c.s, 'a')",
                "SELECT * FROM c WHERE c.s NOT LIKE 'a%'",
                "SELECT * FROM c WHERE CONTAINS(c.tags[0], 'a')",
                "SELECT * FROM c WHERE CONTAINS(c.s, @missing)",
                "SELECT * FROM c WHERE c.tags[0] = 'x'",
                "SELECT * FROM c IN c.children WHERE c.a = 1",
                "SELECT * FROM c.children ch WHERE ch.a = 1",
                "SELECT * FROM (SELECT * FROM c) s WHERE s.a = 1",
                "SELECT * FROM c WHERE c.a = @missing",
                "SELECT * FROM c")) {
            assertThat(of(q)).as(q).isEqualTo("[]");
        }
    }

    @Test
    void stringFunctionsOfAPathWithConstantArgumentsTestTheStringsAsTheFunctionsDo() {
        Map<String, JsonNode> params = Map.of("@t", N.textNode("ROL"), "@ic", N.booleanNode(true));
        for (String q : List.of("SELECT * FROM c WHERE CONTAINS(c.m.s, @t, @ic)",
                "SELECT * FROM c WHERE c.x = 1 AND STARTSWITH(c.m.s, 'CORO', true)",
                "SELECT * FROM c WHERE ENDSWITH(c.m.s, 'LLA', true)",
                "SELECT * FROM c WHERE RegexMatch(c.m.s, 'or.l', 'i')",
                "SELECT * FROM c WHERE c.m.s LIKE 'Cor%la'")) {
            IndexPredicates.StringMatch m = IndexPredicates.of(Sql.parse(q).ast(), params).stream()
                    .filter(p -> p instanceof IndexPredicates.StringMatch).map(p -> (IndexPredicates.StringMatch) p)
                    .findFirst().orElseThrow();
            assertThat(m.path()).as(q).containsExactly("m", "s");
            assertThat(m.test().test("Corolla")).as(q).isTrue();
            assertThat(m.test().test("Camry")).as(q).isFalse();
        }
        var turkish = (IndexPredicates.StringMatch) IndexPredicates.of(
                Sql.parse("SELECT * FROM c WHERE CONTAINS(c.s, 'STRASSE', true)").ast(), Map.of()).get(0);
        assertThat(turkish.test().test("straße")).as("CONTAINS folds case as the function does (upper: SS)").isTrue();
    }

    @Test
    void aLikePatternsLiteralStartNarrowsTheStringsRead() {
        assertThat(StringTermMatch.likePrefix("Cor%la", (char) 0)).isEqualTo("Cor");
        assertThat(StringTermMatch.likePrefix("50!%_x", '!')).isEqualTo("50%");
        assertThat(StringTermMatch.likePrefix("[ab]c", (char) 0)).isEmpty();
        assertThat(StringTermMatch.likePrefix("ab_", (char) 0)).isEqualTo("ab");
        var like = (IndexPredicates.StringMatch) IndexPredicates.of(
                Sql.parse("SELECT * FROM c WHERE c.s LIKE 'ab%'").ast(), Map.of()).get(0);
        assertThat(like.test().prefix()).isEqualTo("ab");
        var contains = (IndexPredicates.StringMatch) IndexPredicates.of(
                Sql.parse("SELECT * FROM c WHERE CONTAINS(c.s, 'ab')").ast(), Map.of()).get(0);
        assertThat(contains.test().prefix()).isEmpty();
    }

    @Test
    void orderByItemsMapToRootPaths() {
        var q = Sql.parse("SELECT * FROM c ORDER BY c.a.b, c[\"x y\"] DESC, c.z");
        assertThat(IndexPredicates.rootPath(q.ast(), q.orderBy().get(0).expr())).containsExactly("a", "b");
        assertThat(IndexPredicates.rootPath(q.ast(), q.orderBy().get(1).expr())).containsExactly("x y");
        assertThat(IndexPredicates.rootPath(q.ast(), q.orderBy().get(2).expr())).containsExactly("z");
        var joined = Sql.parse("SELECT t FROM c JOIN t IN c.tags ORDER BY t.x");
        assertThat(IndexPredicates.rootPath(joined.ast(), joined.orderBy().get(0).expr())).isNull();
    }
}
