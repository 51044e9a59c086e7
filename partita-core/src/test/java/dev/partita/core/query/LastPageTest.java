package dev.partita.core.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.ContainerHandle;
import dev.partita.core.Engine;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.request.Scope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A page that returns the read's last rows carries no continuation, even when it is exactly full: a client that
 * re-creates its iterator from every token (the JavaScript SDK's query control does) would otherwise ask for the
 * same empty page forever. Every kind of read is covered: document order, an index lookup, key order in a large
 * scope, and ORDER BY both ways.
 */
class LastPageTest {

    @Test
    void anExactlyFullLastPageHasNoContinuation() {
        try (Engine engine = IndexedQueryTest.engine(1, null)) {
            ContainerHandle c = engine.container("db", "c");
            create(c, 24);
            for (String q : List.of("SELECT * FROM c", "SELECT c.id FROM c", "SELECT * FROM c WHERE c.n >= 0",
                    "SELECT * FROM c WHERE c.pk = 'p'", "SELECT * FROM c ORDER BY c.n",
                    "SELECT * FROM c ORDER BY c.n DESC", "SELECT * FROM c ORDER BY c.id")) {
                List<QueryPage> pages = pages(c, q, 6);
                assertThat(pages).as(q).hasSize(4);
                assertThat(pages.subList(0, 3)).as(q).allSatisfy(p -> assertThat(p.continuation()).isNotNull());
                assertThat(pages.stream().mapToInt(p -> p.rows().size()).sum()).as(q).isEqualTo(24);
            }
            // an index range ends where its matches end; a filter read item by item has candidates left to test
            assertThat(pages(c, "SELECT * FROM c WHERE c.n < 6", 6)).hasSize(1);
            assertThat(pages(c, "SELECT * FROM c WHERE c.n % 4 = 0", 6)).hasSize(2)
                    .last().satisfies(p -> assertThat(p.rows()).isEmpty());
        }
    }

    @Test
    void aLargeScopeReadInKeyOrderEndsOnItsLastFullPage() {
        try (Engine engine = IndexedQueryTest.engine(1, null)) {
            ContainerHandle c = engine.container("db", "c");
            int n = RidOrderedSource.MAX_CANDIDATES + 10;
            create(c, n);
            List<QueryPage> pages = pages(c, "SELECT * FROM c", n / 5);
            assertThat(pages).hasSize(5);
            assertThat(pages.get(4).continuation()).isNull();
        }
    }

    @Test
    void aJoinCannotTellAndPagesOnToAnEmptyOne() {
        try (Engine engine = IndexedQueryTest.engine(1, null)) {
            ContainerHandle c = engine.container("db", "c");
            create(c, 12);
            // the last row of an item may not be its item's last: the page cannot know it ends the read
            List<QueryPage> pages = pages(c, "SELECT c.id, t FROM c JOIN t IN c.tags", 6);
            assertThat(pages).hasSize(3);
            assertThat(pages.get(2).rows()).isEmpty();
        }
    }

    private static void create(ContainerHandle c, int n) {
        for (int i = 0; i < n; i++) {
            c.create(("{\"id\":\"i" + (n - i) + "\",\"pk\":\"p\",\"n\":" + i + ",\"tags\":[\"t\"]}")
                    .getBytes(StandardCharsets.UTF_8), RequestOptions.NONE);
        }
    }

    private static List<QueryPage> pages(ContainerHandle c, String q, int size) {
        List<QueryPage> pages = new ArrayList<>();
        String token = null;
        do {
            QueryPage p = c.query(q, Map.of(), RequestOptions.scoped(Scope.CONTAINER).withContinuation(token)
                    .withMaxItemCount(size));
            pages.add(p);
            token = p.continuation();
        } while (token != null && pages.size() < 100);
        return pages;
    }
}
