package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.Json;
import dev.partita.core.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Limits;
import dev.partita.core.capacity.Work;
import dev.partita.core.item.StoredItem;
import dev.partita.core.partition.EffectivePartitionKey;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Snapshot;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.sql.EvalContext;
import dev.partita.sql.Sql;
import dev.partita.sql.SqlException;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Query;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Runs one page of a query over one scope (a physical partition, a logical partition or the container).
 *
 * <p>Queries whose rows depend on one item at a time are streamed in key order from a store snapshot and resume at
 * the item the previous page stopped in, so pages never lose or repeat rows and a page costs what it returns. Other
 * queries (ORDER BY, GROUP BY, aggregates, DISTINCT) are evaluated whole; their result is kept for the following pages
 * as long as the container has not changed (same LSN), which makes their pages a consistent snapshot too.
 */
public final class QueryExecutor {
    private static final int PARSED_CACHE = 256;
    private static final int RESULT_CACHE = 32;

    private final Store store;
    private final Limits limits;
    private final Clock clock;
    private final EvalContext context;
    private final Map<String, SqlQuery> parsed = lru(PARSED_CACHE);
    private final Map<ResultKey, List<JsonNode>> results = lru(RESULT_CACHE);

    public QueryExecutor(Store store, Clock clock, Limits limits) {
        this.store = store;
        this.limits = limits;
        this.clock = clock;
        this.context = EvalContext.of(clock);
    }

    /** Parses (once per distinct text) and validates a query; syntax and semantic errors are 400s. */
    public SqlQuery parse(String text) {
        if (text == null || text.isBlank()) {
            throw ServiceException.badRequest("The query text is empty.");
        }
        synchronized (parsed) {
            SqlQuery q = parsed.get(text);
            if (q != null) {
                return q;
            }
        }
        SqlQuery q;
        try {
            q = Sql.parse(text);
        } catch (SqlException e) {
            throw badQuery(e);
        }
        synchronized (parsed) {
            parsed.put(text, q);
        }
        return q;
    }

    static ServiceException badQuery(SqlException e) {
        String code = e.code() == null ? "" : e.code() + ": ";
        return ServiceException.badRequest(code + e.getMessage());
    }

    /**
     * One page of results.
     *
     * @param lsn          the container's current LSN, which identifies the data version for cached results
     * @param maxItemCount rows per page; -1 or 0 for "as many as fit in a response"
     */
    public QueryPage execute(ContainerInfo container, long lsn, QueryScope scope, String text,
            Map<String, JsonNode> params, String continuation, int maxItemCount) {
        SqlQuery query = parse(text);
        Bounds bounds = bounds(container, scope);
        int pageSize = maxItemCount <= 0 ? Integer.MAX_VALUE : maxItemCount;
        try {
            return query.isStreamable()
                    ? streamed(container, query, bounds, params, continuation, pageSize)
                    : materialized(container, lsn, query, bounds, params, continuation, pageSize);
        } catch (SqlException e) {
            throw badQuery(e);
        }
    }

    private QueryPage streamed(ContainerInfo c, SqlQuery query, Bounds bounds, Map<String, JsonNode> params,
            String token, int pageSize) {
        Continuation from = Continuation.parse(token, true);
        long skip = count(query.ast().offset(), params, 0);
        long take = Math.min(count(query.ast().top(), params, Long.MAX_VALUE),
                count(query.ast().limit(), params, Long.MAX_VALUE));
        SqlQuery unpaged = query.withoutPaging();
        List<JsonNode> rows = new ArrayList<>();
        byte[] start = from.key() != null ? from.key() : bounds.from;
        try (Snapshot snapshot = store.snapshot(); Cursor cursor = snapshot.scan(start, bounds.to)) {
            ItemSource source = new ItemSource(cursor, clock.millis() / 1000);
            long[] state = {from.emitted(), from.skipped(), 0, from.key() != null ? from.rowsOfKey() : 0};
            // state: emitted so far, skipped so far, rows of the current item, rows of the resume item to pass over
            long maxBytes = limits.maxResponseBytes();
            boolean[] full = {false};
            if (state[0] < take) {
                unpaged.stream(source, params, context, row -> {
                    if (source.changedItem()) {
                        state[2] = 0;
                    }
                    state[2]++;
                    if (source.isResumeItem(from.key()) && state[2] <= state[3]) {
                        return true;
                    }
                    if (state[1] < skip) {
                        state[1]++;
                        return true;
                    }
                    rows.add(row);
                    state[0]++;
                    if (state[0] >= take) {
                        return false;
                    }
                    if (rows.size() >= pageSize || source.bytes >= maxBytes) {
                        full[0] = true;
                        return false;
                    }
                    return true;
                });
            }
            String next = full[0] && state[0] < take
                    ? Continuation.streamed(source.currentKey, state[2], state[0], state[1]).encode()
                    : null;
            return new QueryPage(rows, next, bounds.rangeId,
                    Work.scan(Work.Operation.QUERY, 0, source.items, source.bytes, rows.size(), Rows.bytes(rows)));
        }
    }

    private QueryPage materialized(ContainerInfo c, long lsn, SqlQuery query, Bounds bounds,
            Map<String, JsonNode> params, String token, int pageSize) {
        Continuation from = Continuation.parse(token, false);
        ResultKey key = new ResultKey(c.containerId(), lsn, query.text(), String.valueOf(params), bounds.rangeId,
                Arrays.hashCode(bounds.from), Arrays.hashCode(bounds.to));
        List<JsonNode> all;
        long items = 0;
        long bytes = 0;
        synchronized (results) {
            all = results.get(key);
        }
        if (all == null) {
            try (Snapshot snapshot = store.snapshot(); Cursor cursor = snapshot.scan(bounds.from, bounds.to)) {
                ItemSource source = new ItemSource(cursor, clock.millis() / 1000);
                all = query.execute(source, params, context);
                items = source.items;
                bytes = source.bytes;
            }
            synchronized (results) {
                results.put(key, all);
            }
        }
        int offset = (int) Math.min(from.offset(), all.size());
        int end = (int) Math.min((long) offset + pageSize, all.size());
        List<JsonNode> page = all.subList(offset, end);
        String next = end < all.size() ? Continuation.materialized(end).encode() : null;
        return new QueryPage(page, next, bounds.rangeId,
                Work.scan(Work.Operation.QUERY, 0, items, bytes, page.size(), Rows.bytes(page)));
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

    // ---- scope → key bounds

    private record Bounds(byte[] from, byte[] to, String rangeId) {
    }

    private Bounds bounds(ContainerInfo c, QueryScope scope) {
        if (scope.partitionKey() != null) {
            scope.partitionKey().validateFor(c.partitionKey(), limits, false);
            String epk = EffectivePartitionKey.of(c.partitionKey(), scope.partitionKey());
            PhysicalPartition owner = c.partitions().route(epk);
            if (scope.partitionKey().size() == c.partitionKey().levels()) {
                byte[][] r = StoreKeys.logicalPartition(c.containerId(), epk);
                return new Bounds(r[0], r[1], owner.id());
            }
            byte[][] r = StoreKeys.itemRange(c.containerId(), epk, epk + "FF");
            return new Bounds(r[0], r[1], owner.id());
        }
        String min = "";
        String max = "FF";
        String rangeId = null;
        if (scope.rangeId() != null) {
            PhysicalPartition p = c.partitions().byId(scope.rangeId());
            min = p.minInclusive();
            max = p.maxExclusive();
            rangeId = p.id();
        }
        if (scope.startEpk() != null && scope.startEpk().compareTo(min) > 0) {
            min = scope.startEpk();
        }
        if (scope.endEpk() != null && !scope.endEpk().isEmpty() && scope.endEpk().compareTo(max) < 0) {
            max = scope.endEpk();
        }
        byte[][] r = StoreKeys.itemRange(c.containerId(), min, max);
        return new Bounds(r[0], r[1], rangeId);
    }

    // ---- the items of a scope as the evaluator's input

    /** Live items in key order, parsed one at a time, remembering which item the evaluator is on. */
    private static final class ItemSource implements Iterable<JsonNode> {
        private final Cursor cursor;
        private final long now;
        byte[] currentKey;
        private boolean changed;
        long items;
        long bytes;

        ItemSource(Cursor cursor, long nowSeconds) {
            this.cursor = cursor;
            this.now = nowSeconds;
        }

        boolean changedItem() {
            boolean c = changed;
            changed = false;
            return c;
        }

        boolean isResumeItem(byte[] resumeKey) {
            return resumeKey != null && Arrays.equals(resumeKey, currentKey);
        }

        @Override
        public Iterator<JsonNode> iterator() {
            return new Iterator<>() {
                private JsonNode next;

                @Override
                public boolean hasNext() {
                    while (next == null && cursor.next()) {
                        StoredItem item = StoredItem.wrap(cursor.value());
                        if (!item.isLiveAt(now)) {
                            continue;
                        }
                        items++;
                        bytes += item.jsonLength();
                        currentKey = cursor.key();
                        changed = true;
                        next = Json.parse(item.json(), "stored item");
                    }
                    return next != null;
                }

                @Override
                public JsonNode next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    JsonNode n = next;
                    next = null;
                    return n;
                }
            };
        }
    }

    private record ResultKey(int container, long lsn, String text, String params, String rangeId, int from, int to) {
    }

    private static <K, V> Map<K, V> lru(int capacity) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > capacity;
            }
        };
    }
}
