package dev.partita.server.route;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The metadata queries the SDKs send, and texts that a backtracking engine would take hours over. */
class MetadataQueryTest {
    private static final ObjectNode DB = (ObjectNode) Json.parse("{\"id\":\"db1\",\"n\":2,\"ok\":true}", "test");

    @Test
    void theSdksShapesFilterByEquality() {
        assertThat(matches("SELECT * FROM root r WHERE r.id = @id", "[{\"name\":\"@id\",\"value\":\"db1\"}]")).isTrue();
        assertThat(matches("SELECT * FROM root r WHERE r.id = @id", "[{\"name\":\"@id\",\"value\":\"db2\"}]")).isFalse();
        assertThat(matches("select * from c where c[\"id\"] = 'db1' and c.n = 2", "[]")).isTrue();
        assertThat(matches("SELECT * FROM r WHERE (r.ok = true) AND r.n = 3 ORDER BY r.id", "[]")).isFalse();
        assertThat(matches("SELECT * FROM r WHERE r.id = 'db1' OFFSET 0 LIMIT 1", "[]")).isTrue();
        // anything else lists every resource
        assertThat(matches("SELECT * FROM r", "[]")).isTrue();
        assertThat(matches("SELECT * FROM r WHERE r.id != 'x'", "[]")).isTrue();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void longRunsOfSpacesAreReadInLinearTime() {
        String spaces = " ".repeat(400_000);
        assertThat(matches("SELECT * FROM r WHERE r.id = 'db1'" + spaces + "x", "[]")).isTrue();
        assertThat(matches("SELECT * FROM r WHERE r.id = 'db1'" + spaces + "and" + spaces + "r.n = 2", "[]")).isTrue();
        assertThat(matches("SELECT * FROM r WHERE" + spaces + "(" + "(".repeat(100_000) + "r.id = 'zz'", "[]"))
                .isFalse();
    }

    private static boolean matches(String query, String parameters) {
        ObjectNode body = Json.object().put("query", query);
        body.set("parameters", Json.parse(parameters, "test"));
        return MetadataQuery.parse(body.toString().getBytes(StandardCharsets.UTF_8)).matches(DB);
    }
}
