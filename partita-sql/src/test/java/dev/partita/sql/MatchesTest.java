package dev.partita.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatchesTest {
    private final JsonNode item = json("{id: 'a', status: 'open', qty: 5, tags: ['x', 'y'], _ts: 1700000000}");

    @Test
    void patchConditionWithoutSelect() {
        SqlQuery q = Sql.parseCondition("FROM c WHERE c.status = 'open' AND c.qty > 3");
        assertThat(q.matches(item, Map.of())).isTrue();
        assertThat(Sql.parseCondition("from c where c.qty > 10").matches(item, Map.of())).isFalse();
        assertThat(Sql.parseCondition("FROM c").matches(item, Map.of())).isTrue();
    }

    @Test
    void undefinedAndNonBooleanConditionsDoNotMatch() {
        assertThat(Sql.parseCondition("FROM c WHERE c.missing = 1").matches(item, Map.of())).isFalse();
        assertThat(Sql.parseCondition("FROM c WHERE c.qty").matches(item, Map.of())).isFalse();
        assertThat(Sql.parseCondition("FROM c WHERE NOT IS_DEFINED(c.missing)").matches(item, Map.of())).isTrue();
    }

    @Test
    void matchesWithParametersAndFullQueries() {
        SqlQuery q = Sql.parse("SELECT * FROM c WHERE c.qty >= @min AND ARRAY_CONTAINS(c.tags, @tag)");
        assertThat(q.matches(item, Map.of("@min", IntNode.valueOf(5), "@tag", TextNode.valueOf("y")))).isTrue();
        assertThat(q.matches(item, Map.of("@min", IntNode.valueOf(6), "@tag", TextNode.valueOf("y")))).isFalse();
        // a parameter not supplied is undefined, and nothing contains undefined
        assertThat(q.matches(item, Map.of("@min", IntNode.valueOf(5)))).isFalse();
    }

    @Test
    void joinConditionMatchesWhenAnyJoinedRowMatches() {
        SqlQuery q = Sql.parse("SELECT VALUE c.id FROM c JOIN t IN c.tags WHERE t = 'y'");
        assertThat(q.matches(item, Map.of())).isTrue();
        assertThat(Sql.parse("SELECT VALUE c.id FROM c JOIN t IN c.tags WHERE t = 'z'").matches(item, Map.of()))
                .isFalse();
    }

    @Test
    void timeFunctionsNeedAClock() {
        SqlQuery q = Sql.parseCondition("FROM c WHERE c._ts < GetCurrentTimestamp() / 1000");
        assertThatThrownBy(() -> q.matches(item, Map.of())).isInstanceOf(SqlException.class)
                .hasMessageContaining("Clock");
        assertThat(q.matches(item, Map.of(), CTX)).isTrue();
    }

    @Test
    void conditionSyntaxErrors() {
        assertThatThrownBy(() -> Sql.parseCondition("WHERE c.a = 1")).isInstanceOf(SqlException.class)
                .hasMessageContaining("Syntax error");
        assertThatThrownBy(() -> Sql.parseCondition("FROM c WHERE c.a = 1 ORDER BY c.a"))
                .isInstanceOf(SqlException.class).hasMessageContaining("Syntax error");
    }
}
