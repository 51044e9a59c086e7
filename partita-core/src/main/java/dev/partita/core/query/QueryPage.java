package dev.partita.core.query;

import dev.partita.core.capacity.Work;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One page of query results.
 *
 * @param rows         the result rows (read-only: they may share nodes with cached results)
 * @param continuation the token for the next page, or null when the scope is drained
 * @param rangeId      the physical partition that served the page (null for a whole-container run)
 * @param work         what producing the page did (items and index entries read, rows returned): the cost model's input
 * @param requestCharge the page's price (0 until the engine prices it)
 * @param sessionToken  the session token of the partition that served it (null until the engine sets it)
 * @param indexUtilization the query's index metrics, when it asked for them (else null)
 * @param compileNanos  how long getting the query ready to run took (its parse, or the parsed query's cache lookup):
 *                      the query metrics' compile time
 */
public record QueryPage(List<JsonNode> rows, String continuation, String rangeId, Work work, double requestCharge,
        String sessionToken, IndexUtilization indexUtilization, long compileNanos) {

    public QueryPage(List<JsonNode> rows, String continuation, String rangeId, Work work) {
        this(rows, continuation, rangeId, work, 0, null, null, 0);
    }

    public QueryPage charged(double ru, String token) {
        return new QueryPage(rows, continuation, rangeId, work, ru, token, indexUtilization, compileNanos);
    }

    public QueryPage withContinuation(String token) {
        return new QueryPage(rows, token, rangeId, work, requestCharge, sessionToken, indexUtilization, compileNanos);
    }

    public QueryPage withIndexUtilization(IndexUtilization utilization) {
        return new QueryPage(rows, continuation, rangeId, work, requestCharge, sessionToken, utilization, compileNanos);
    }

    public QueryPage withCompileNanos(long nanos) {
        return new QueryPage(rows, continuation, rangeId, work, requestCharge, sessionToken, indexUtilization, nanos);
    }
}
