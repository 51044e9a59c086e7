package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.request.Deadline;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rows of one page of a query read item by item (streamed or in index order): carries TOP, OFFSET and LIMIT
 * across pages, passes over the rows of the resume item that the previous page already returned, and stops when the
 * page is full (row count, response size, or the request's time). The response size counts both what the page read
 * and what it returns: a projection or a JOIN can return many times the bytes it reads, and the service splits a
 * page whose response would be too large.
 */
final class PageRows {
    private final long skip;
    private final long take;
    private final int pageSize;
    private final long maxBytes;
    private final long resumeRows;
    private final Deadline deadline;
    private final List<JsonNode> rows = new ArrayList<>();
    private long emitted;
    private long skipped;
    private long rowsOfItem;
    private long returnedBytes;
    private boolean full;

    /**
     * @param from       where the previous page stopped (its emitted/skipped counts and the rows of its last item)
     * @param resumes    whether {@code from} names an item to resume at
     */
    PageRows(SqlQuery query, Map<String, JsonNode> params, int pageSize, long maxBytes, Continuation from,
            boolean resumes, Deadline deadline) {
        this.deadline = deadline;
        this.skip = count(query.ast().offset(), params, 0);
        this.take = Math.min(count(query.ast().top(), params, Long.MAX_VALUE),
                count(query.ast().limit(), params, Long.MAX_VALUE));
        this.pageSize = pageSize;
        this.maxBytes = maxBytes;
        this.emitted = from.emitted();
        this.skipped = from.skipped();
        this.resumeRows = resumes ? from.rowsOfKey() : 0;
    }

    /** True when TOP/LIMIT was reached on an earlier page: nothing to read. */
    boolean exhausted() {
        return emitted >= take;
    }

    /**
     * Takes one row; false to stop reading.
     *
     * @param newItem      the row is the first of its item
     * @param ofResumeItem the row's item is the one the previous page stopped in
     * @param bytesLoaded  what the page has loaded so far
     */
    boolean accept(JsonNode row, boolean newItem, boolean ofResumeItem, long bytesLoaded) {
        if (newItem) {
            rowsOfItem = 0;
        }
        rowsOfItem++;
        if (ofResumeItem && rowsOfItem <= resumeRows) {
            return true;
        }
        if (skipped < skip) {
            skipped++;
            return true;
        }
        rows.add(row);
        returnedBytes += Rows.bytes(row) + 1;
        emitted++;
        if (emitted >= take) {
            return false;
        }
        if (rows.size() >= pageSize || Math.max(bytesLoaded, returnedBytes) >= maxBytes || deadline.passed()) {
            full = true;
            return false;
        }
        return true;
    }

    /** The page ended early (its read reached the request's deadline) with rows still to come. */
    void cut() {
        full = true;
    }

    /** True when the page stopped because it was full, with rows still to come: the caller hands out a token. */
    boolean continues() {
        return full && emitted < take;
    }

    List<JsonNode> rows() {
        return rows;
    }

    /** The approximate serialized size of {@link #rows} ({@link Rows#bytes}), for the charge. */
    long returnedBytes() {
        return returnedBytes;
    }

    long emitted() {
        return emitted;
    }

    long skipped() {
        return skipped;
    }

    long rowsOfItem() {
        return rowsOfItem;
    }

    private static long count(Query.Count count, Map<String, JsonNode> params, long absent) {
        if (count == null) {
            return absent;
        }
        if (count instanceof Query.Count.Constant constant) {
            return constant.value();
        }
        String name = ((Query.Count.Parameter) count).name();
        JsonNode v = params == null ? null : params.get(name);
        if (v == null || !v.canConvertToLong() || v.longValue() < 0) {
            throw ServiceException.badRequest("The parameter " + name + " used in TOP, OFFSET or LIMIT must be a"
                    + " non-negative integer.");
        }
        return v.longValue();
    }
}
