package dev.partita.core.json;

import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.error.ServiceException;
import dev.partita.core.ContainerHandle;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.Conditions;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Request bodies of any depth are a 400 quickly: never a StackOverflowError or a 500 while parsing, measuring or writing. */
class JsonDepthTest {

    @Test
    void theDepthOfAnyTreeIsMeasuredWithoutRecursion() {
        ArrayNode root = Json.NODES.arrayNode();
        ArrayNode a = root;
        for (int i = 1; i < 200_000; i++) {
            a = a.addArray();
        }
        ObjectNode wide = Json.object();
        wide.putObject("x").putArray("y").addObject().put("z", 1);
        wide.put("flat", 1);
        assertThat(Json.depth(root)).isEqualTo(200_000);
        assertThat(Json.depth(wide)).isEqualTo(4);
        assertThat(Json.depth(Json.NODES.textNode("s"))).isZero();
        assertThat(Json.depth(Json.NODES.arrayNode())).isEqualTo(1);
    }

    /** The parser's other bounds say what they bound: a number of 1,001 digits is a long number, not a deep body. */
    @Test
    void aNumberOrAStringPastTheParsersBoundsIsABadRequestThatSaysSo() {
        assertThatThrownBy(() -> Json.parse("{\"n\":1" + "0".repeat(1_000) + "}", "item"))
                .isInstanceOfSatisfying(ServiceException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo("The item holds a number with more digits than the parser"
                            + " reads.");
                });
        assertThatThrownBy(() -> Json.parse("\"" + "x".repeat(20_000_001) + "\"", "script result"))
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("The script result holds a string longer than the parser reads."));
    }

    @Test
    void aTreeTooDeepToWriteIsABadRequest() {
        ArrayNode root = Json.NODES.arrayNode();
        ArrayNode a = root;
        for (int i = 1; i < 5_000; i++) {
            a = a.addArray();
        }
        assertThatThrownBy(() -> Json.bytes(root)).isInstanceOfSatisfying(ServiceException.class,
                e -> assertThat(e.status()).isEqualTo(400));
    }

    /**
     * Bodies nested 10,000 deep, and two patch adds of 500-deep values, one inside the other (an item deeper than JSON
     * can write), are 400s, refused quickly.
     */
    @Test
    void deepBodiesAndPatchesThatNestAnItemPastAnyLimitAreBadRequests() {
        long start = System.nanoTime();
        for (String body : new String[] {"[".repeat(10_000) + "]".repeat(10_000),
            "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000), "[".repeat(1_000_000)}) {
            assertThatThrownBy(() -> Json.parse(body, "item")).isInstanceOfSatisfying(ServiceException.class, e -> {
                assertThat(e.status()).isEqualTo(400);
                assertThat(e.getMessage()).isEqualTo("The item is nested too deeply.");
            });
        }
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms for three refusals").isLessThan(1_000);
        try (Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS)) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t"), Throughput.NONE, 0);
            ContainerHandle items = engine.container("db", "c");
            PartitionKeyValue pk = PartitionKeyValue.fromHeader("[\"a\"]");
            items.create(bytes("{\"id\":\"1\",\"pk\":\"a\"}"), RequestOptions.of(pk));
            String deep = "{\"a\":".repeat(500) + "{}" + "}".repeat(500);
            String body = "{\"operations\":[{\"op\":\"add\",\"path\":\"/d\",\"value\":" + deep + "},"
                    + "{\"op\":\"add\",\"path\":\"/d" + "/a".repeat(500) + "/e\",\"value\":" + deep + "}]}";
            assertThatThrownBy(() -> items.patch("1", bytes(body), RequestOptions.of(pk)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
            assertThatThrownBy(() -> items.create(bytes("{\"id\":\"2\",\"pk\":\"a\",\"d\":" + "[".repeat(10_000)
                    + "]".repeat(10_000) + "}"), RequestOptions.of(pk)))
                    .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
