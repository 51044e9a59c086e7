package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.CTX;
import static dev.partita.sql.QueryTestSupport.docs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.functions.Builtin;
import dev.partita.sql.functions.Builtins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every built-in function (and the search functions, and the aggregates) called with every arity its signature
 * allows and one more, on arguments of every JSON shape: each call must give rows or a {@link SqlException} — a
 * wrong argument is undefined or a 400, never an exception of the implementation. One and two arguments are tried
 * in every combination, more as a seeded sample.
 */
class FunctionArgumentsTest {
    private static final List<String> VALUES = List.of("c.nope", "null", "true", "0", "-1", "1.5", "-0.0", "1e308",
            "-1e308", "9223372036854775807", "4294967296", "'x'", "''", "'2024-02-29T23:59:59.9999999Z'", "'P'",
            "'\\uD800'", "'%_[a-'", "[]", "[1, 'a', null, [2]]", "{}", "{a: 1, b: [1, 2]}", "c.v", "c.s",
            "{type: 'Point', coordinates: [1, 2]}",
            "{type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]]}",
            "{type: 'LineString', coordinates: [[0, 0]]}", "{type: 'Polygon', coordinates: [[]]}");
    private static final List<String> SEARCH = List.of("VectorDistance", "FullTextContains", "FullTextContainsAll",
            "FullTextContainsAny", "FullTextScore", "RRF");
    private static final List<String> AGGREGATES = List.of("COUNT", "SUM", "AVG", "MIN", "MAX", "MakeList",
            "MakeSet", "CountIf");
    private static final List<JsonNode> DOCS = docs("[{id: '1', v: [0.1, 0.2, 0.3], s: 'The quick brown fox'}]");
    private static final int SAMPLES = 300;

    @Test
    void everyFunctionOnEveryShapeGivesRowsOrAQueryError() {
        Random random = new Random(20261206L);
        List<String> failures = new ArrayList<>();
        int ran = 0;
        int calls = 0;
        List<String[]> functions = new ArrayList<>();
        for (Builtin b : Builtins.all()) {
            functions.add(new String[] {b.name(), String.valueOf(b.minArgs()),
                String.valueOf(Math.min(b.maxArgs(), b.minArgs() + 3))});
        }
        Stream.concat(SEARCH.stream(), AGGREGATES.stream())
                .forEach(n -> functions.add(new String[] {n, "0", "4"}));
        for (String[] f : functions) {
            int min = Integer.parseInt(f[1]);
            int max = Integer.parseInt(f[2]);
            for (int arity = Math.max(0, min - 1); arity <= max + 1; arity++) {
                for (List<String> args : arguments(arity, random)) {
                    String call = f[0] + "(" + String.join(", ", args) + ")";
                    calls++;
                    for (String query : List.of("SELECT VALUE " + call + " FROM c",
                            "SELECT c.id FROM c WHERE " + call + " ORDER BY c.id")) {
                        try {
                            Sql.parse(query).execute(DOCS, Map.of(), CTX);
                            ran++;
                        } catch (SqlException expected) {
                            if (expected.getMessage() == null || expected.getMessage().isBlank()) {
                                failures.add(query + ": an error without a message");
                            }
                        } catch (RuntimeException | StackOverflowError e) {
                            failures.add(query + ": " + e);
                        }
                    }
                    if (failures.size() > 40) {
                        break;
                    }
                }
            }
        }
        System.out.printf("FunctionArgumentsTest: %d functions, %d calls, %d ran%n", functions.size(), calls, ran);
        assertThat(failures).isEmpty();
        // the calls must reach the implementations, not only the signature checks
        assertThat(ran).isGreaterThan(calls / 2);
    }

    private static List<List<String>> arguments(int arity, Random random) {
        List<List<String>> out = new ArrayList<>();
        if (arity == 0) {
            out.add(List.of());
        } else if (arity == 1) {
            VALUES.forEach(v -> out.add(List.of(v)));
        } else if (arity == 2) {
            for (String a : VALUES) {
                for (String b : VALUES) {
                    out.add(List.of(a, b));
                }
            }
        } else {
            for (int i = 0; i < SAMPLES; i++) {
                List<String> args = new ArrayList<>();
                for (int k = 0; k < arity; k++) {
                    args.add(VALUES.get(random.nextInt(VALUES.size())));
                }
                out.add(args);
            }
        }
        return out;
    }
}
