package dev.partita.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ParserErrorTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT TOP -1 * FROM c",
            "SELECT c.a, FROM c",
            "SELECT c.12a FROM c",
            "SELECT * FROM c LIMIT 10",
            "SELECT * FROM c OFFSET 10",
            "SELECT * FROM c WHERE",
            "SELECT c.value FROM c",
            "SELECT * FROM c WHERE c.a IN ()",
            "SELECT * FROM c WHERE c.a IN (1,)",
            "SELECT * FROM c WHERE 1 BETWEEN 2 AND 3 BETWEEN 4 AND 5",
            "SELECT * FROM c ORDER BY c.a OFFSET -1 LIMIT 1",
            "",
    })
    void syntaxErrorsAreSc1001WithAPosition(String query) {
        SqlException e = catchThrowableOfType(SqlException.class, () -> Sql.parse(query));
        assertThat(e).as(query).isNotNull();
        assertThat(e.code()).isEqualTo("SC1001");
        assertThat(e.getMessage()).startsWith("Syntax error, incorrect syntax near");
        assertThat(e.start()).isGreaterThanOrEqualTo(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 'unterminated FROM c", "SELECT * FROM c WHERE c.a = TRUE2 #",
            "SELECT * FROM c;", "SELECT * FROM c WHERE c.a = \u201ctest\u201d"})
    void aCharacterWithNoTokenIsSc1010InvalidToken(String query) {
        SqlException e = catchThrowableOfType(SqlException.class, () -> Sql.parse(query));
        assertThat(e).as(query).isNotNull();
        assertThat(e.code()).isEqualTo("SC1010");
        assertThat(e.getMessage()).startsWith("Syntax error, invalid token '");
        assertThat(e.start()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void syntaxErrorNamesTheToken() {
        assertThatThrownBy(() -> Sql.parse("SELECT TOP -1 * FROM c"))
                .hasMessage("Syntax error, incorrect syntax near '-'.");
        SqlException e = catchThrowableOfType(SqlException.class, () -> Sql.parse("SELECT TOP -1 * FROM c"));
        assertThat(e.start()).isEqualTo(11);
        assertThat(e.end()).isEqualTo(12);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "SELECT * FROM c JOIN t IN c.tags                      | 'SELECT *' is only valid with a single input set",
            "SELECT *                                              | 'SELECT *' is only valid with a single input set",
            "SELECT * FROM c GROUP BY c.a                          | 'SELECT *' is not allowed with GROUP BY",
            "SELECT c.a FROM c GROUP BY c.a ORDER BY c.a           | GROUP BY cannot be combined with ORDER BY",
            "SELECT * FROM c ORDER BY LOWER(c.x)                   | could not be mapped to a document path",
            "SELECT VALUE MAX(MIN(c.a)) FROM c                     | Cannot perform an aggregate function",
            "SELECT c.b, COUNT(1) FROM c GROUP BY c.a              | Property reference 'c.b' is invalid in the select list",
            "SELECT c.b, COUNT(1) FROM c                           | Property reference 'c.b' is invalid in the select list",
            "SELECT * FROM c WHERE COUNT(1) > 1                    | is not allowed in the WHERE clause",
            "SELECT BADFUNC(r.age) FROM r                          | 'BADFUNC' is not a recognized built-in function name",
            "SELECT STARTSWITH(c.a, 'a', 'b', 'c') FROM c          | The STARTSWITH function requires 2 to 3 argument(s)",
            "SELECT products.id FROM products p                    | Identifier 'products' could not be resolved",
            "SELECT id FROM c                                      | Identifier 'id' could not be resolved",
            "SELECT * FROM c ORDER BY udf.tax(c.price)             | could not be mapped to a document path",
            "SELECT FullTextScore(c.t, 'x') FROM c                 | only valid in ORDER BY RANK",
            "SELECT TOP 4294967296 * FROM c                        | TOP clause must be an integer",
            "SELECT * FROM c OFFSET 4294967296 LIMIT 1             | OFFSET count value exceeds the maximum",
            "SELECT * FROM c OFFSET 1 LIMIT 4294967296             | LIMIT count value exceeds the maximum",
            "SELECT c.a, c.a FROM c                                | more than once",
            "SELECT VALUE c FROM c JOIN c IN c.tags                 | bound more than once",
            "SELECT * FROM c ORDER BY RANK c.x                     | ORDER BY RANK needs a scoring function",
            "SELECT * FROM c ORDER BY RANK FullTextScore(c.t, 'a') DESC | sort order (ASC or DESC) in the ORDER BY RANK",
            "SELECT VectorDistance(c.a, c.b, false, {a: 1}) FROM c | 'a' is not an option of VectorDistance",
    })
    void validationErrorsNameTheProblem(String query, String message) {
        assertThatThrownBy(() -> Sql.parse(query)).isInstanceOf(SqlException.class).hasMessageContaining(message);
    }

    @Test
    void errorCodesAreExposed() {
        assertThat(catchThrowableOfType(SqlException.class, () -> Sql.parse("SELECT NOPE() FROM c")).code())
                .isEqualTo("SC2005");
        assertThat(catchThrowableOfType(SqlException.class, () -> Sql.parse("SELECT * FROM c GROUP BY c.a")).code())
                .isEqualTo("SC2041");
        assertThat(catchThrowableOfType(SqlException.class,
                () -> Sql.parse("SELECT c.b FROM c GROUP BY c.a")).code()).isEqualTo("SC2102");
    }

    @Test
    void keywordsAreCaseInsensitiveButLiteralsAreLowerCase() {
        assertThat(run("SeLeCt VaLuE c.a FrOm c WhErE c.a > 1 oRdEr By c.a DeSc", "[{a:1},{a:2},{a:3}]"))
                .isEqualTo("[3,2]");
        assertThat(run("select value true")).isEqualTo("[true]");
        assertThatThrownBy(() -> Sql.parse("SELECT VALUE TRUE")).hasMessageContaining("'TRUE' could not be resolved");
    }

    @Test
    void keywordPropertiesNeedTheBracketForm() {
        assertThat(run("SELECT VALUE c[\"value\"] FROM c", "[{value: 5}]")).isEqualTo("[5]");
        assertThat(run("SELECT c[\"order\"] FROM c", "[{order: 5}]")).isEqualTo("[{\"order\":5}]");
    }

    @Test
    void errorsNeverEchoParameterValues() {
        SqlQuery q = Sql.parse("SELECT TOP @n * FROM c");
        assertThatThrownBy(() -> q.execute(List.of(), Map.of("@n", TextNode.valueOf("secret-value")), CTX))
                .isInstanceOf(SqlException.class)
                .hasMessageNotContaining("secret-value")
                .hasMessageContaining("TOP");
    }

    /**
     * A parameter the request does not supply is undefined, as the service binds it: Spring Data Cosmos leaves an
     * empty Optional out, and {@code NOT IS_DEFINED(@city) OR c.city = @city} then matches every item. A count still
     * needs its value.
     */
    @Test
    void aMissingParameterIsUndefined() {
        SqlQuery q = Sql.parse("SELECT VALUE c.id FROM c WHERE (NOT IS_DEFINED(@city) OR c.city = @city)");
        assertThat(q.parameterNames()).containsExactly("@city");
        List<JsonNode> items = List.of(QueryTestSupport.json("{\"id\":\"a\",\"city\":\"x\"}"),
                QueryTestSupport.json("{\"id\":\"b\",\"city\":\"y\"}"));
        assertThat(q.execute(items, Map.of(), CTX)).extracting(JsonNode::asText).containsExactly("a", "b");
        assertThat(q.execute(items, Map.of("@city", TextNode.valueOf("y")), CTX)).extracting(JsonNode::asText)
                .containsExactly("b");
        assertThatThrownBy(() -> Sql.parse("SELECT TOP @n * FROM c").execute(items, Map.of(), CTX))
                .isInstanceOf(SqlException.class).hasMessageContaining("TOP");
    }
}
