package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One page of query results.
 *
 * @param rows         the result rows (read-only: they may share nodes with cached results)
 * @param continuation the token for the next page, or null when the scope is drained
 * @param rangeId      the physical partition that served the page (null for a whole-container run)
 * @param itemsLoaded  items read from the store to produce the page (the cost model's input)
 * @param bytesLoaded  stored bytes of those items
 */
public record QueryPage(List<JsonNode> rows, String continuation, String rangeId, long itemsLoaded,
        long bytesLoaded) {
}
