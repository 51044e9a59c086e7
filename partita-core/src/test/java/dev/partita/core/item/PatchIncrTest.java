package dev.partita.core.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** incr past the 64-bit integer range, or past the largest double, is the caller's error (400), not the server's. */
class PatchIncrTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "9223372036854775807  | 1",
        "9223372036854775800  | 100",
        "-9223372036854775808 | -1",
        "1                    | 9223372036854775807999",
        "92233720368547758070 | 1",
        "1.7e308              | 1.7e308",
        "-1.7e308             | -1e308",
    })
    void anIncrementOutOfRangeIsABadRequestNamingThePath(String current, String by) {
        ObjectNode doc = (ObjectNode) Json.parse("{\"id\":\"1\",\"stats\":{\"n\":" + current + "}}", "t");
        Patch patch = Patch.parse(Json.parse("{\"operations\":[{\"op\":\"incr\",\"path\":\"/stats/n\",\"value\":" + by
                + "}]}", "t"), 10);
        ServiceException e = catchThrowableOfType(ServiceException.class, () -> patch.applyTo(doc));
        assertThat(e).as("%s incr %s", current, by).isNotNull();
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).contains("/stats/n").doesNotContain(current.trim()).doesNotContain(by.trim());
        assertThat(doc.get("stats").get("n").asText()).as("the item is unchanged")
                .isEqualTo(Json.parse(current.trim(), "t").asText());
    }

    @Test
    void incrementsWithinRangeStillAdd() {
        ObjectNode doc = (ObjectNode) Json.parse("{\"id\":\"1\",\"n\":9223372036854775806,\"d\":1.5}", "t");
        Patch.parse(Json.parse("{\"operations\":[{\"op\":\"incr\",\"path\":\"/n\",\"value\":1},"
                + "{\"op\":\"incr\",\"path\":\"/d\",\"value\":1e308}]}", "t"), 10).applyTo(doc);
        assertThat(doc.get("n").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(doc.get("d").doubleValue()).isEqualTo(1e308);
    }
}
