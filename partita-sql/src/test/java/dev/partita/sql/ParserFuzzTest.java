package dev.partita.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 100,000 generated inputs (fixed seed): random token soups and mutations of the documented queries. The parser
 * must return a query or a {@link SqlException}, nothing else, and the whole run is bounded in time.
 */
class ParserFuzzTest {
    static final long SEED = 20261130L;
    static final int INPUTS = 100_000;
    static final String[] TOKENS = {"SELECT", "VALUE", "DISTINCT", "TOP", "FROM", "IN", "JOIN", "WHERE", "AND", "OR",
        "NOT", "ORDER", "BY", "GROUP", "ASC", "DESC", "OFFSET", "LIMIT", "AS", "BETWEEN", "LIKE", "ESCAPE", "EXISTS",
        "ARRAY", "IS_DEFINED", "COUNT", "SUM", "AVG", "MIN", "MAX", "CONTAINS", "udf", "c", "c.a", "c[\"x\"]", "t",
        "@p", "*", ",", ".", "(", ")", "[", "]", "{", "}", ":", "?", "??", "||", "+", "-", "/", "%", "=", "!=", "<>",
        "<", "<=", ">", ">=", "&", "|", "^", "~", "<<", ">>", ">>>", "1", "-2.5e3", "0x1F", "'s'", "\"d\"", "true",
        "false", "null", "undefined", "NaN", "Infinity", "'\\u00e9'", "'unterminated", "\u0000", "é", "\n"};

    @Test
    void theParserAnswersEveryInputWithAQueryOrItsOwnError() throws IOException {
        Random random = new Random(SEED);
        List<String> seeds = documentedQueries();
        int parsed = 0;
        long deadline = System.nanoTime() + 120_000_000_000L;
        for (int i = 0; i < INPUTS; i++) {
            String input = i % 2 == 0 ? soup(random) : mutate(seeds.get(random.nextInt(seeds.size())), random);
            try {
                Sql.parse(input);
                parsed++;
            } catch (SqlException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError("input #" + i + " (seed " + SEED + ") threw " + e + ": " + input, e);
            }
            assertThat(System.nanoTime()).as("fuzzing stays within its time bound").isLessThan(deadline);
        }
        // the generator must reach the parser's accepting paths too, not only its error paths
        assertThat(parsed).isGreaterThan(INPUTS / 100);
    }

    private static String soup(Random random) {
        StringBuilder b = new StringBuilder(random.nextBoolean() ? "SELECT " : "");
        int n = 1 + random.nextInt(25);
        for (int i = 0; i < n; i++) {
            b.append(TOKENS[random.nextInt(TOKENS.length)]).append(random.nextInt(4) == 0 ? "" : " ");
        }
        return b.toString();
    }

    private static String mutate(String query, Random random) {
        StringBuilder b = new StringBuilder(query);
        int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits && b.length() > 0; i++) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(4)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
                case 2 -> b.setCharAt(at, (char) (32 + random.nextInt(95)));
                default -> b.insert(at, b.substring(at, Math.min(b.length(), at + random.nextInt(20))));
            }
        }
        return b.toString();
    }

    private static List<String> documentedQueries() throws IOException {
        Path cases = ConformanceCases.FILE;
        ObjectMapper json = new ObjectMapper();
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(cases, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                JsonNode c = json.readTree(line);
                out.add(c.get("query").asText());
            }
        }
        assertThat(out).isNotEmpty();
        return out;
    }
}
