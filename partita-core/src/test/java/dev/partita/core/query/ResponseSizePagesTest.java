package dev.partita.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A page ends when its response would be too large, counting what it returns as well as what it read (the service
 * splits such a page, docs "Pagination"): a JOIN over one small item, or a projection that repeats it, returns many
 * times its bytes. The limit is scaled down to 20 KB here; draining the pages gives exactly the rows of one
 * unbounded read, streamed and evaluated whole alike.
 */
class ResponseSizePagesTest {
    static final int LIMIT = 20_000;

    @Test
    void pagesEndAtTheResponseSizeByTheBytesTheyReturn() {
        try (Engine engine = Engine.open(new MemoryStore(), QueryExecutorTest.CLOCK,
                Limits.DEFAULTS.toBuilder().maxResponseBytes(LIMIT).build())) {
            engine.createDatabase(Json.object().put("id", "db"), Throughput.NONE);
            engine.createContainer("db", (ObjectNode) Json.parse(
                    "{\"id\":\"c\",\"partitionKey\":{\"paths\":[\"/pk\"]}}", "t"), Throughput.NONE, 1);
            String numbers = IntStream.range(0, 40).mapToObj(Integer::toString).collect(Collectors.joining(","));
            engine.container("db", "c").create(("{\"id\":\"one\",\"pk\":\"p\",\"a\":[" + numbers + "]}")
                    .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
            // 1,600 rows of ~70 bytes from one 200-byte item: ~115 KB, six or more pages of 20 KB
            String streamed = "SELECT x, y, 'padding padding padding padding padding padding' AS pad"
                    + " FROM c JOIN x IN c.a JOIN y IN c.a";
            String whole = "SELECT DISTINCT x, y, 'padding padding padding padding padding padding' AS pad"
                    + " FROM c JOIN x IN c.a JOIN y IN c.a";
            for (String query : List.of(streamed, whole)) {
                List<JsonNode> rows = new ArrayList<>();
                int pages = 0;
                String token = null;
                do {
                    QueryPage p = engine.container("db", "c").query(query, Map.of(),
                            RequestOptions.scoped(Scope.range("0")).withContinuation(token).withMaxItemCount(5_000));
                    assertThat(Rows.bytes(p.rows())).as("one page of %s", query).isLessThan(LIMIT + 200);
                    rows.addAll(p.rows());
                    token = p.continuation();
                    pages++;
                } while (token != null && pages < 100);
                assertThat(rows).as(query).hasSize(1_600).doesNotHaveDuplicates();
                assertThat(pages).as(query).isGreaterThanOrEqualTo((int) (Rows.bytes(rows) / LIMIT));
            }
        }
    }
}
