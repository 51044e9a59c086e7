package dev.partita.sql.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchFunctionsTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static final SearchPolicy POLICY = new SearchPolicy() {
        @Override
        public VectorEmbedding embedding(String path) {
            return switch (path) {
                case "/e" -> new VectorEmbedding(path, VectorDataType.FLOAT32, 2, DistanceFunction.EUCLIDEAN);
                case "/b" -> new VectorEmbedding(path, VectorDataType.INT8, 2, DistanceFunction.DOTPRODUCT);
                default -> null;
            };
        }

        @Override
        public String language(String path) {
            return path.equals("/de") ? "de-DE" : path.equals("/fr") ? "fr-FR" : DEFAULT_LANGUAGE;
        }
    };

    private static List<JsonNode> run(String query, String doc) {
        try {
            return Sql.parse(query).execute(List.of(M.readTree(doc)), Map.of(),
                    EvalContext.of(Clock.systemUTC()).withSearch(POLICY));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = "=>", value = {
        // the policy's distance function for the path, else cosine; options override
        "VectorDistance(c.v, [1, 0])                                        => 0.6",
        "VectorDistance(c.e, [0, 0])                                        => 5.0",
        "VectorDistance(c.v, [0, 0], false, {distanceFunction: 'euclidean'}) => 5.0",
        "VectorDistance(c.v, [1, 1], false, {distanceFunction: 'dotproduct'}) => 7.0",
        "VectorDistance(c.b, [1, 1])                                        => 7.0",
        // int8 holds -128..127 only: out of range or fractional is not a vector of the type
        "VectorDistance(c.b, [1, 128])                                      => undefined",
        "VectorDistance(c.v, [1, 0, 0])                                     => undefined",
        "VectorDistance(c.v, 'x')                                           => undefined",
    })
    void vectorDistance(String expr, String expected) {
        List<JsonNode> rows = run("SELECT VALUE " + expr + " FROM c", "{\"v\":[3,4],\"e\":[3,4],\"b\":[3,4]}");
        if (expected.equals("undefined")) {
            assertThat(rows).isEmpty();
        } else {
            assertThat(rows.get(0).doubleValue()).isCloseTo(Double.parseDouble(expected),
                    org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void orderByVectorDistanceSortsMostSimilarFirstWhateverTheFunction() {
        String docs = "[{\"id\":\"a\",\"e\":[0,1]},{\"id\":\"b\",\"e\":[5,5]},{\"id\":\"c\",\"e\":[1,1]}]";
        List<JsonNode> items = new java.util.ArrayList<>();
        try {
            M.readTree(docs).forEach(items::add);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        List<JsonNode> rows = Sql.parse("SELECT VALUE c.id FROM c ORDER BY VectorDistance(c.e, [0, 0])")
                .execute(items, Map.of(), EvalContext.of(Clock.systemUTC()).withSearch(POLICY));
        assertThat(rows).extracting(JsonNode::asText).containsExactly("a", "c", "b");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = "=>", value = {
        "FullTextContains(c.t, 'RUNNING')                       => true",
        "FullTextContains(c.t, 'the')                           => false",
        "FullTextContains(c.t, 'quick brown')                   => true",
        "FullTextContains(c.t, 'brown quick')                   => false",
        "FullTextContainsAll(c.t, 'fox', 'dogs')                => true",
        "FullTextContainsAll(c.t, 'fox', 'cat')                 => false",
        "FullTextContainsAny(c.t, 'cat', 'fox')                 => true",
        "FullTextContains(c.t, {term: 'quikc', distance: 2})    => true",
        "FullTextContains(c.t, {term: 'quikc', distance: 1})    => false",
        "FullTextContains(c.de, 'Häuser')                       => true",
        "FullTextContains(c.fr, 'chevaux')                      => true",
        "FullTextContains(c.missing, 'fox')                     => false",
    })
    void fullTextContains(String expr, String expected) {
        List<JsonNode> rows = run("SELECT VALUE " + expr + " FROM c", "{\"t\":\"The quick brown fox was running "
                + "from the dogs\",\"de\":\"Das Haus am See\",\"fr\":\"Le cheval blanc\"}");
        assertThat(rows.get(0).asText()).isEqualTo(expected);
    }

    @Test
    void fuzzyDistanceAboveTwoIsRefused() {
        assertThatThrownBy(() -> run("SELECT VALUE FullTextContains(c.t, {term: 'x', distance: 3}) FROM c",
                "{\"t\":\"x\"}")).isInstanceOf(SqlException.class).hasMessageContaining("0 to 2");
    }

    @Test
    void bm25WithTheCorpusStatisticsGiven() {
        // N = 10, 40 terms in all (avgdl 4), the term in 2 documents; this document: 4 terms, the term twice
        List<JsonNode> rows = run("SELECT VALUE _FullTextScore(c.t, ['fox'], 10, 40, [2]) FROM c",
                "{\"t\":\"fox fox runs far\"}");
        double idf = Math.log(1 + (10 - 2 + 0.5) / 2.5);
        assertThat(rows.get(0).doubleValue()).isCloseTo(idf * 2 * 2.2 / (2 + 1.2), org.assertj.core.data.Offset
                .offset(1e-12));
        assertThat(run("SELECT VALUE _FullTextWordCount(c.t) FROM c", "{\"t\":\"the fox and the dog\"}").get(0)
                .asInt()).isEqualTo(2);
    }
}
