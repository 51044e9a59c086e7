package dev.partita.core.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A batch or bulk body read in one pass: the operations of the one-tree parse, each with its item's bytes as sent. */
class BatchBodyTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsEachResourceBodyObjectsBytesBesideTheOperationTheTreeParseGives() {
        String first = "{ \"id\" : \"a\", \"pk\":\"p\", \"n\": 1.50, \"s\": \"caf\\u00e9 \u00e9\","
                + " \"o\": {\"x\": [1, {}]} }";
        String second = "{\"id\":\"b\",\"pk\":\"p\"}";
        byte[] body = utf8(" [ {\"operationType\":\"Upsert\",\"partitionKey\":\"[\\\"p\\\"]\",\"resourceBody\":" + first
                + ",\"ifMatch\":\"e\"},\n {\"resourceBody\":" + second + ",\"operationType\":\"Create\","
                + "\"partitionKey\":\"[\\\"p\\\"]\",\"minimalReturnPreference\":true},"
                + "{\"operationType\":\"Delete\",\"partitionKey\":\"[\\\"p\\\"]\",\"id\":\"c\",\"resourceBody\":null},"
                + "{\"operationType\":\"Read\",\"partitionKey\":\"[\\\"p\\\"]\",\"id\":\"d\",\"resourceBody\":[1]}]");
        List<BatchOperation> ops = BatchBody.parse(body, "bulk body", true);
        List<BatchOperation> tree = BatchOperation.parseAll(Json.parse(body, "bulk body"), true);
        assertThat(ops).hasSameSizeAs(tree);
        for (int i = 0; i < ops.size(); i++) {
            BatchOperation o = ops.get(i);
            BatchOperation t = tree.get(i);
            assertThat(o.withResourceBytes(null)).usingRecursiveComparison().isEqualTo(t);
        }
        assertThat(new String(ops.get(0).resourceBytes(), StandardCharsets.UTF_8)).isEqualTo(first);
        assertThat(new String(ops.get(1).resourceBytes(), StandardCharsets.UTF_8)).isEqualTo(second);
        assertThat(ops.get(2).resourceBytes()).as("null is no object").isNull();
        assertThat(ops.get(3).resourceBytes()).as("an array is no object").isNull();
    }

    /** A body in UTF-16 (which the parser reads too) has no byte offsets to keep: its items are encoded anew. */
    @Test
    void aBodyInAnotherEncodingIsReadWithoutItsItemsBytes() {
        String text = "[{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"p\\\"]\",\"resourceBody\":"
                + "{\"id\":\"é\",\"pk\":\"p\"}}]";
        for (java.nio.charset.Charset cs : List.of(StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE)) {
            List<BatchOperation> ops = BatchBody.parse(text.getBytes(cs), "bulk body", true);
            assertThat(ops).singleElement().satisfies(o -> {
                assertThat(o.id()).isEqualTo("é");
                assertThat(o.resourceBytes()).isNull();
            });
        }
        byte[] bom = ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8);
        assertThat(BatchBody.parse(bom, "bulk body", true)).singleElement()
                .satisfies(o -> assertThat(o.id()).isEqualTo("\u00e9"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "{}", "[", "[{\"operationType\":\"Create\"", "[{\"operationType\":}]",
            "[{\"operationType\":\"Nope\"}, {\"a\" 1}]", "[{\"resourceBody\":{\"id\":\"x\"}]", "[1, 2", "[]",
            "[\"Create\"]", "[null]", "[{\"operationType\":\"Create\",\"resourceBody\":null}]",
            "[{\"operationType\":\"Create\",\"resourceBody\":{\"id\":\"x\"},\"partitionKey\":1}]"})
    void refusesABadBodyAsTheTreeParseDoes(String text) {
        String expected = message(() -> BatchOperation.parseAll(Json.parse(utf8(text), "bulk body"), true));
        assertThat(message(() -> BatchBody.parse(utf8(text), "bulk body", true))).isEqualTo(expected);
    }

    private static String message(Runnable parse) {
        try {
            parse.run();
        } catch (ServiceException e) {
            return e.status() + ": " + e.getMessage();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void aBodyNestedTooDeeplyIsThe400OfTheTreeParse() {
        String deep = "[{\"resourceBody\":" + "[".repeat(2000) + "]".repeat(2000) + "}]";
        assertThatThrownBy(() -> BatchBody.parse(utf8(deep), "bulk body", true))
                .isInstanceOf(ServiceException.class).hasMessage("The bulk body is nested too deeply.");
    }
}
