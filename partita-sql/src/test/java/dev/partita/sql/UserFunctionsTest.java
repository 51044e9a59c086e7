package dev.partita.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.functions.UserFunctions;
import dev.partita.sql.plan.QueryPlanner;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code udf.name(...)} calls reach the caller's {@link UserFunctions}, per row, in every clause. */
class UserFunctionsTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final List<String> calls = new ArrayList<>();
    private final UserFunctions doubler = (name, args) -> {
        calls.add(name);
        if (!name.equals("double")) {
            throw new SqlException("no such function " + name);
        }
        return args[0] == null ? null : IntNode.valueOf(args[0].asInt() * 2);
    };

    private List<JsonNode> run(String text) throws Exception {
        List<JsonNode> items = List.of(M.readTree("{\"id\":\"a\",\"n\":1}"), M.readTree("{\"id\":\"b\",\"n\":5}"),
                M.readTree("{\"id\":\"c\"}"));
        return Sql.parse(text).execute(items, Map.of(), EvalContext.of(CLOCK).withUserFunctions(doubler));
    }

    @Test
    void aUdfIsCalledPerRowInSelectAndWhere() throws Exception {
        assertThat(run("SELECT VALUE udf.double(c.n) FROM c WHERE udf.double(c.n) > 4"))
                .containsExactly(IntNode.valueOf(10));
        assertThat(calls).hasSize(4); // three rows filtered, one projected
    }

    @Test
    void undefinedArgumentsAreNotSkippedAndUndefinedResultsAreDropped() throws Exception {
        assertThat(run("SELECT VALUE udf.double(c.n) FROM c")).containsExactly(IntNode.valueOf(2),
                IntNode.valueOf(10));
        assertThat(calls).hasSize(3);
    }

    @Test
    void theQueryNamesItsFunctionsAndIsNeverFolded() {
        SqlQuery q = Sql.parse("SELECT udf.a(1), udf.b('x') FROM c WHERE udf.a(2) = 1");
        assertThat(q.userFunctionNames()).containsExactlyInAnyOrder("a", "b");
        assertThat(Sql.parse("SELECT VALUE udf.double(2) FROM c").userFunctionNames()).containsExactly("double");
    }

    @Test
    void withoutFunctionsTheQueryFailsCleanly() {
        assertThatThrownBy(() -> Sql.parse("SELECT VALUE udf.double(c.n) FROM c")
                .execute(List.of(TextNode.valueOf("x")), Map.of(), EvalContext.of(CLOCK)))
                .isInstanceOf(SqlException.class).hasMessageContaining("user-defined function");
    }

    @Test
    void theSdkQueryPlanAcceptsAndKeepsTheCall() {
        String plan = QueryPlanner.plan(Sql.parse("SELECT VALUE udf.double(c.n) FROM c ORDER BY c.n"),
                List.of("/pk"), Map.of()).queryInfo().toString();
        assertThat(plan).contains("udf.double");
    }
}
