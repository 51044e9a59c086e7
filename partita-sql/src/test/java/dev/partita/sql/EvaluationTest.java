package dev.partita.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.docs;
import static dev.partita.sql.QueryTestSupport.json;
import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EvaluationTest {

    /** Single-value expressions: expression → JSON of SELECT VALUE result array ([] when undefined). */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '`', value = {
            // undefined propagation and dropping
            "undefined                          => []",
            "{}.missing                         => []",
            "[1, undefined, 2]                  => [[1,2]]",
            "{a: 1, b: undefined}               => [{\"a\":1}]",
            "'a' + 1                            => []",
            "1 + null                           => []",
            "'a' || 'b'                         => [\"ab\"]",
            "'a' || 1                           => []",
            // three-valued logic
            "false AND undefined                => [false]",
            "undefined AND false                => [false]",
            "true AND undefined                 => []",
            "true OR undefined                  => [true]",
            "false OR undefined                 => []",
            "NOT undefined                      => []",
            "NOT 1                              => []",
            "true AND 1                         => []",
            // comparisons
            "1 < 'a'                            => []",
            "'a' < 'b'                          => [true]",
            "'B' < 'a'                          => [true]",
            "null = null                        => [true]",
            "null < null                        => [false]",
            "null <= null                       => [true]",
            "[1,2] = [1,2]                      => [true]",
            "[1,2] = [2,1]                      => [false]",
            "{a:1,b:2} = {b:2,a:1}              => [true]",
            "[1] < [2]                          => []",
            "1 = 1.0                            => [true]",
            "1 = '1'                            => [false]",
            "1 != '1'                           => [true]",
            "undefined = undefined              => []",
            "1 <> 2                             => [true]",
            // arithmetic and numbers
            "5 / 2                              => [2.5]",
            "1 + 2 * 3 - 4 / 5                  => [6.2]",
            "7 % 3                              => [1]",
            "-7 % 3                             => [-1]",
            "24.5 * 0.55                        => [13.475000000000001]",
            "9223372036854775807 + 1            => [9.223372036854776E18]",
            "IS_INTEGER(9223372036854775807)    => [true]",
            "IS_INTEGER(-9223372036854775808)   => [true]",
            "IS_INTEGER(18446744073709551615)   => [false]",
            "IS_INTEGER(1.5)                    => [false]",
            "0x1F                               => [31]",
            "1E2                                => [100.0]",
            ".5                                 => [0.5]",
            "1-2                                => [-1]",
            // bitwise (JavaScript 32-bit semantics)
            "5 & 3                              => [1]",
            "5 | 3                              => [7]",
            "5 ^ 3                              => [6]",
            "~5                                 => [-6]",
            "1 << 33                            => [2]",
            "-16 >> 2                           => [-4]",
            "-1 >>> 28                          => [15]",
            "4294967296 | 0                     => [0]",
            "1 = 2 & 3 != 4                     => []",
            // ternary and coalesce
            "true ? 1 : 2                       => [1]",
            "1 ? 1 : 2                          => [2]",
            "false ? 1 : true ? 2 : 3           => [2]",
            "1 ? 2 : 3 + 4                      => [7]",
            "undefined ?? 5                     => [5]",
            "null ?? 5                          => [null]",
            "42 ?? 1337                         => [42]",
            // BETWEEN / IN / LIKE
            "2 BETWEEN 1 AND 3                  => [true]",
            "2 NOT BETWEEN 1 AND 3              => [false]",
            "'b' BETWEEN 1 AND 3                => []",
            "0 BETWEEN 1 AND 'z'                => [false]",
            "2 IN (1, 2, 3)                     => [true]",
            "2 NOT IN (1, 3)                    => [true]",
            "'2' IN (1, 2)                      => [false]",
            "undefined IN (1)                   => []",
            "12 IN (1,2,3,4,5,6,7,8,9,10,11,12) => [true]",
            "'abc' LIKE 'a%'                    => [true]",
            "'abc' LIKE 'A%'                    => [false]",
            "'abc' LIKE 'a_c'                   => [true]",
            "'abc' LIKE 'a_'                    => [false]",
            "'abc' LIKE '[a-c]bc'               => [true]",
            "'dbc' LIKE '[^a-c]bc'              => [true]",
            "'20% off' LIKE '%20^%%' ESCAPE '^' => [true]",
            "'20 off' LIKE '%20^%%' ESCAPE '^'  => [false]",
            "'a.c' LIKE 'a.c'                   => [true]",
            "'abc' LIKE 'a.c'                   => [false]",
            "'a%' LIKE 'a[%]'                   => [true]",
            "'abc' NOT LIKE 'x%'                => [true]",
            "1 LIKE '1'                         => []",
            // functions: undefined for wrong types, type checks never undefined
            "LENGTH(null)                       => []",
            "IS_STRING(undefined)               => [false]",
            "IS_DEFINED(null)                   => [true]",
            "UPPER(1)                           => []",
            "ABS(-5)                            => [5]",
            "ROUND(-0.5)                        => [-1]",
            "ROUND(2.5)                         => [3]",
            "LOG(2, 10)                         => [0.3010299956639812]",
            "IntMod(12, -5)                     => [2]",
            "IntAdd(9223372036854775807, 1)     => [-9223372036854775808]",
            "ToString(1.5)                      => [\"1.5\"]",
            "ToString([1, 'a', {b: null}])      => [\"[1,\\\"a\\\",{\\\"b\\\":null}]\"]",
            "StringToNumber('  12 ')            => [12]",
            "StringToArray('[1] x')             => []",
            "ARRAY_CONTAINS_ALL([1,2,3,4], 5, undefined) => [false]",
            "ARRAY_CONTAINS_ANY([1,2,3,4], 1, undefined) => [true]",
            "CONTAINS_ALL_CI('Had a lamb', undefined, 'had') => []",
            "CONTAINS_ALL_CI('Had a lamb', undefined, 'xyz') => [false]",
            "SetDifference([1,2,3,2], [2])      => [[1,3]]",
            "SetEqual([1,2], [2,1,1])           => [true]",
            "StringSplit('a,,b', ',')           => [[\"a\",\"\",\"b\"]]",
            "StringJoin(['a','b'], '-')         => [\"a-b\"]",
            "LASTINDEXOF('abcabc', 'bc')        => [4]",
            "LASTINDEXOF('abcabc', 'bc', 3)     => [1]",
            "IS_DATETIME('2024-12-12')          => [true]",
            "IS_DATETIME('2024-12-12T20Z')      => [false]",
            "IS_DATETIME('2024-12-12T20:00:00.') => [false]",
            "IS_DATETIME('2024-12-12 20:00:00.1234567Z') => [true]",
            "DateTimeFormat('2024-03-04T05:06:07.1234567Z', 'yyyy-MM-dd HH:mm:ss.fff') => [\"2024-03-04 05:06:07.123\"]",
            "Month('2024-03-04T05:06:07Z')      => [3]",
            "DateTimeAdd('mm', 1, '2024-01-31T00:00:00Z') => [\"2024-02-29T00:00:00.0000000Z\"]",
            "GetCurrentDateTime()               => [\"2024-05-06T07:08:09.1234567Z\"]",
            "GetCurrentTicksStatic()            => [17149792891234567]",
            "GetCurrentTimestamp()              => [1714979289123]",
            "Ago('dd', 1)                       => [\"2024-05-05T07:08:09.1234567Z\"]",
    })
    void scalar(String expr, String expected) {
        assertThat(run("SELECT VALUE " + expr)).isEqualTo(expected);
    }

    @Test
    void selectUndefinedVersusSelectValueUndefined() {
        assertThat(run("SELECT VALUE undefined")).isEqualTo("[]");
        assertThat(run("SELECT undefined AS x")).isEqualTo("[{}]");
        assertThat(run("SELECT VALUE EXISTS(SELECT VALUE undefined)")).isEqualTo("[false]");
        assertThat(run("SELECT VALUE EXISTS(SELECT undefined)")).isEqualTo("[true]");
    }

    @Test
    void impliedColumnNames() {
        assertThat(run("SELECT c.a.b, c['x'], c, 1, LOWER('A') FROM c", "[{a: {b: 2}, x: 3}]"))
                .isEqualTo("[{\"b\":2,\"x\":3,\"c\":{\"a\":{\"b\":2},\"x\":3},\"$1\":1,\"$2\":\"a\"}]");
        assertThat(run("SELECT c.a AS first, c.a second FROM c", "[{a: 1}]"))
                .isEqualTo("[{\"first\":1,\"second\":1}]");
    }

    @Test
    void whereAcceptsOnlyBooleanTrue() {
        String items = "[{id:'1', v: true}, {id:'2', v: 1}, {id:'3', v: 'true'}, {id:'4', v: null}, {id:'5'}]";
        assertThat(run("SELECT VALUE c.id FROM c WHERE c.v", items)).isEqualTo("[\"1\"]");
        assertThat(run("SELECT VALUE c.id FROM c WHERE c.v != 'x'", items)).isEqualTo("[\"1\",\"2\",\"3\",\"4\"]");
        assertThat(run("SELECT VALUE c.id FROM c WHERE NOT IS_DEFINED(c.v)", items)).isEqualTo("[\"5\"]");
    }

    @Test
    void orderByUsesTheCrossTypeOrderAndKeepsUndefined() {
        String items = "[{id:'obj', k:{}}, {id:'arr', k:[]}, {id:'str', k:'a'}, {id:'num', k:1}, {id:'true', k:true},"
                + " {id:'false', k:false}, {id:'null', k:null}, {id:'undef'}]";
        assertThat(run("SELECT VALUE c.id FROM c ORDER BY c.k", items))
                .isEqualTo("[\"undef\",\"null\",\"false\",\"true\",\"num\",\"str\",\"arr\",\"obj\"]");
        assertThat(run("SELECT VALUE c.id FROM c ORDER BY c.k DESC", items))
                .isEqualTo("[\"obj\",\"arr\",\"str\",\"num\",\"true\",\"false\",\"null\",\"undef\"]");
    }

    @Test
    void orderByMultipleKeysStringsOrdinal() {
        String items = "[{a:'b', n:2}, {a:'B', n:1}, {a:'a', n:3}, {a:'b', n:1}]";
        assertThat(run("SELECT VALUE [c.a, c.n] FROM c ORDER BY c.a ASC, c.n DESC", items))
                .isEqualTo("[[\"B\",1],[\"a\",3],[\"b\",2],[\"b\",1]]");
    }

    @Test
    void aggregatesFollowTheUndefinedAndMixedTypeRules() {
        String mixed = "[{v: 1}, {v: 'a'}, {v: null}, {v: true}, {}]";
        assertThat(run("SELECT VALUE {c: COUNT(c.v), s: SUM(c.v), a: AVG(c.v), mn: MIN(c.v), mx: MAX(c.v)} FROM c",
                mixed)).isEqualTo("[{\"c\":4,\"mn\":null,\"mx\":\"a\"}]");
        assertThat(run("SELECT VALUE {c: COUNT(c.v), s: SUM(c.v), a: AVG(c.v), mn: MIN(c.v)} FROM c", "[{}, {}]"))
                .isEqualTo("[{\"c\":0,\"s\":0}]");
        assertThat(run("SELECT VALUE MIN(c.v) FROM c", "[{v: 1}, {v: [1]}]")).isEqualTo("[]");
        assertThat(run("SELECT VALUE COUNT(1) FROM c", "[]")).isEqualTo("[0]");
        assertThat(run("SELECT COUNT(1) AS n, AVG(c.v) AS a FROM c", "[]")).isEqualTo("[{\"n\":0}]");
        assertThat(run("SELECT VALUE SUM(c.v) FROM c", "[{v: 1}, {v: 2.5}]")).isEqualTo("[3.5]");
        assertThat(run("SELECT VALUE FLOOR(AVG(c.v)) FROM c", "[{v: 1}, {v: 2}]")).isEqualTo("[1]");
        assertThat(run("SELECT VALUE MAKESET(c.v) FROM c", "[{v: 1}, {v: 1.0}, {v: 2}]")).isEqualTo("[[1,2]]");
    }

    @Test
    void groupByTreatsUndefinedAsItsOwnKey() {
        String items = "[{k: 1, v: 1}, {k: 1, v: 2}, {k: null, v: 3}, {v: 4}, {k: 1.0, v: 5}]";
        List<JsonNode> rows = Sql.parse("SELECT c.k, SUM(c.v) AS s FROM c GROUP BY c.k")
                .execute(docs(items), Map.of(), CTX);
        assertThat(rows.stream().map(JsonNode::toString))
                .containsExactlyInAnyOrder("{\"k\":1,\"s\":8}", "{\"k\":null,\"s\":3}", "{\"s\":4}");
    }

    @Test
    void distinctTopOffsetLimit() {
        String items = "[{a: 1}, {a: 2}, {a: 1}, {a: 3}, {a: 2}, {b: 1}]";
        assertThat(run("SELECT DISTINCT VALUE c.a FROM c ORDER BY c.a", items)).isEqualTo("[1,2,3]");
        assertThat(run("SELECT DISTINCT c.a FROM c ORDER BY c.a", items))
                .isEqualTo("[{},{\"a\":1},{\"a\":2},{\"a\":3}]");
        assertThat(run("SELECT TOP 2 VALUE c.a FROM c ORDER BY c.a DESC", items)).isEqualTo("[3,2]");
        assertThat(run("SELECT VALUE c.a FROM c ORDER BY c.a OFFSET 2 LIMIT 2", items)).isEqualTo("[2,2]");
        assertThat(run("SELECT VALUE c.a FROM c ORDER BY c.a OFFSET 10 LIMIT 2", items)).isEqualTo("[]");
        assertThat(run("SELECT TOP 0 * FROM c", items)).isEqualTo("[]");
    }

    @Test
    void topWithOrderByKeepsOnlyTheFirstRowsInStableOrder() {
        StringBuilder items = new StringBuilder("[");
        for (int i = 0; i < 20; i++) {
            items.append(i == 0 ? "" : ",").append("{i: ").append(i).append(", k: ").append(i % 4).append('}');
        }
        items.append(']');
        // keys 0,1,2,3 repeat; ties keep input order
        assertThat(run("SELECT c.i FROM c ORDER BY c.k OFFSET 3 LIMIT 4", items.toString()))
                .isEqualTo("[{\"i\":12},{\"i\":16},{\"i\":1},{\"i\":5}]");
        assertThat(run("SELECT TOP 3 c.i FROM c ORDER BY c.k DESC", items.toString()))
                .isEqualTo("[{\"i\":3},{\"i\":7},{\"i\":11}]");
    }

    @Test
    void parametersStandWhereConstantsMay() {
        String items = "[{id: 'a', n: 1, tags: ['x']}, {id: 'b', n: 2, tags: ['y']}, {id: 'c', n: 3, tags: []}]";
        Map<String, JsonNode> p = Map.of("@min", IntNode.valueOf(2), "@top", IntNode.valueOf(1),
                "@prop", TextNode.valueOf("id"), "@tag", TextNode.valueOf("y"), "@off", IntNode.valueOf(1),
                "@lim", IntNode.valueOf(5));
        assertThat(run("SELECT VALUE c.id FROM c WHERE c.n >= @min ORDER BY c.n", items, p))
                .isEqualTo("[\"b\",\"c\"]");
        assertThat(run("SELECT TOP @top VALUE c[@prop] FROM c WHERE c.n >= @min ORDER BY c.n", items, p))
                .isEqualTo("[\"b\"]");
        assertThat(run("SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(c.tags, @tag)", items, p))
                .isEqualTo("[\"b\"]");
        assertThat(run("SELECT VALUE c.id FROM c ORDER BY c.n OFFSET @off LIMIT @lim", items, p))
                .isEqualTo("[\"b\",\"c\"]");
        assertThat(run("SELECT VALUE @tag", "[]", p)).isEqualTo("[\"y\"]");
        assertThat(run("SELECT VALUE c.id FROM c WHERE c.n IN (@min, 3)", items, p)).isEqualTo("[\"b\",\"c\"]");
    }

    @Test
    void joinIsAPerItemInnerCrossProduct() {
        String items = "[{id: 'a', tags: ['x', 'y'], sizes: [1, 2]}, {id: 'b', tags: []}, {id: 'c'},"
                + " {id: 'd', tags: 'notarray', sizes: [1]}, {id: 'e', tags: ['z'], sizes: [3]}]";
        assertThat(run("SELECT c.id, t AS tag, s FROM c JOIN t IN c.tags JOIN s IN c.sizes", items))
                .isEqualTo("[{\"id\":\"a\",\"tag\":\"x\",\"s\":1},{\"id\":\"a\",\"tag\":\"x\",\"s\":2},"
                        + "{\"id\":\"a\",\"tag\":\"y\",\"s\":1},{\"id\":\"a\",\"tag\":\"y\",\"s\":2},"
                        + "{\"id\":\"e\",\"tag\":\"z\",\"s\":3}]");
        assertThat(run("SELECT VALUE t FROM c JOIN t IN c.tags WHERE t != 'x'", items)).isEqualTo("[\"y\",\"z\"]");
        assertThat(run("SELECT VALUE x FROM c JOIN (SELECT VALUE t FROM t IN c.tags WHERE t > 'x') x", items))
                .isEqualTo("[\"y\",\"z\"]");
        assertThat(run("SELECT VALUE n FROM c JOIN n IN (SELECT VALUE [1, 2]) WHERE c.id = 'a'", items))
                .isEqualTo("[1,2]");
    }

    @Test
    void fromForms() {
        String items = "[{id: 'a', kids: [{n: 1}, {n: 2}], emp: {team: 't1'}}, {id: 'b', emp: {team: 't2'}}, {id: 'c'}]";
        assertThat(run("SELECT VALUE k.n FROM k IN c.kids", items)).isEqualTo("[1,2]");
        assertThat(run("SELECT * FROM c.emp", items)).isEqualTo("[{\"team\":\"t1\"},{\"team\":\"t2\"}]");
        assertThat(run("SELECT VALUE e.team FROM root.emp e", items)).isEqualTo("[\"t1\",\"t2\"]");
        assertThat(run("SELECT VALUE c[\"kids\"][1].n FROM c", items)).isEqualTo("[2]");
        assertThat(run("SELECT VALUE x.id FROM (SELECT c.id FROM c WHERE c.id > 'a') x", items))
                .isEqualTo("[\"b\",\"c\"]");
        assertThat(run("SELECT VALUE c.kids[1 + 0].n FROM c", items)).isEqualTo("[2]");
    }

    @Test
    void subqueries() {
        String items = "[{id: 'a', inv: [{q: 1}, {q: 5}]}, {id: 'b', inv: []}, {id: 'c'}]";
        assertThat(run("SELECT c.id, (SELECT VALUE COUNT(1) FROM i IN c.inv) AS n FROM c", items))
                .isEqualTo("[{\"id\":\"a\",\"n\":2},{\"id\":\"b\",\"n\":0},{\"id\":\"c\",\"n\":0}]");
        assertThat(run("SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE i FROM i IN c.inv WHERE i.q > 2)", items))
                .isEqualTo("[\"a\"]");
        assertThat(run("SELECT VALUE ARRAY(SELECT VALUE i.q * 2 FROM i IN c.inv) FROM c", items))
                .isEqualTo("[[2,10],[],[]]");
        assertThat(run("SELECT VALUE ARRAY(SELECT i.q FROM i IN c.inv) FROM c WHERE c.id = 'a'", items))
                .isEqualTo("[[{\"q\":1},{\"q\":5}]]");
        assertThat(run("SELECT VALUE (SELECT VALUE MAX(i.q) FROM i IN c.inv) FROM c", items)).isEqualTo("[5]");
        assertThat(run("SELECT VALUE FIRST(SELECT VALUE i.q FROM i IN c.inv) FROM c", items)).isEqualTo("[1]");
        assertThatThrownBy(() -> run("SELECT VALUE (SELECT VALUE i FROM i IN c.inv) FROM c", items))
                .isInstanceOf(SqlException.class).hasMessageContaining("more than one row");
    }

    @Test
    void precedence() {
        assertThat(run("SELECT VALUE 1 + 2 * 3")).isEqualTo("[7]");
        assertThat(run("SELECT VALUE (1 + 2) * 3")).isEqualTo("[9]");
        assertThat(run("SELECT VALUE -2 < 1")).isEqualTo("[true]");
        assertThat(run("SELECT VALUE 1 > 2 = false")).isEqualTo("[true]");
        assertThat(run("SELECT VALUE true OR false AND false")).isEqualTo("[true]");
        // BETWEEN binds the first AND
        assertThat(run("SELECT VALUE c.id FROM c WHERE c.n BETWEEN 1 AND 2 AND c.id != 'x'", "[{id:'a', n: 2}]"))
                .isEqualTo("[\"a\"]");
        // NOT is a prefix operator at unary level: NOT a = b is (NOT a) = b
        assertThat(run("SELECT VALUE NOT true = false")).isEqualTo("[true]");
        assertThat(run("SELECT VALUE 'a' || 'b' = 'ab'")).isEqualTo("[]");
    }

    @Test
    void largeNumbersKeepIntegerIdentityAndDivisionIsDouble() {
        assertThat(run("SELECT VALUE c.n + 1 FROM c", "[{n: 9007199254740993}]")).isEqualTo("[9007199254740994]");
        assertThat(run("SELECT VALUE c.n / 2 FROM c", "[{n: 9}]")).isEqualTo("[4.5]");
        assertThat(run("SELECT VALUE IS_FINITE_NUMBER(1 / 0)")).isEqualTo("[false]");
    }

    @Test
    void inputItemsAreNotCopied() {
        JsonNode item = json("{id: 'a', nested: {x: 1}}");
        List<JsonNode> rows = Sql.parse("SELECT * FROM c").execute(List.of(item), Map.of(), CTX);
        assertThat(rows.get(0)).isSameAs(item);
        List<JsonNode> values = Sql.parse("SELECT VALUE c.nested FROM c").execute(List.of(item), Map.of(), CTX);
        assertThat(values.get(0)).isSameAs(item.get("nested"));
    }

    @Test
    void compiledQueryIsReusable() {
        SqlQuery q = Sql.parse("SELECT VALUE c.n * @k FROM c ORDER BY c.n");
        for (int k = 1; k <= 3; k++) {
            List<JsonNode> rows = q.execute(docs("[{n: 2}, {n: 1}]"), Map.of("@k", IntNode.valueOf(k)), CTX);
            assertThat(rows.stream().map(JsonNode::longValue)).containsExactly((long) k, 2L * k);
        }
    }
}
