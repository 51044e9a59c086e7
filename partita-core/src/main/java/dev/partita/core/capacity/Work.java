package dev.partita.core.capacity;

/**
 * What one operation actually did, in the units the cost model prices. The engine records it as it works (items and
 * index terms written, index entries and items read, rows and bytes returned); the cost model turns it into request
 * units. Keeping the two apart lets a test assert the work and the price separately.
 *
 * @param operation        what kind of operation did the work
 * @param itemBytes        size of the item read or written (point operations; for deletes the removed item's size)
 * @param indexTerms       index entries written or removed under the container's indexing policy, one per indexed
 *                         path value and one per composite index (writes)
 * @param indexEntriesRead index entries visited by lookups (queries)
 * @param itemsLoaded      items read from the store (queries, feeds)
 * @param bytesLoaded      stored bytes of those items
 * @param rowsReturned     result rows sent back (queries, feeds)
 * @param bytesReturned    approximate serialized size of those rows
 * @param functionCalls    built-in and user-defined function calls the query evaluated (queries)
 * @param searchWork       vector elements compared and text terms examined by search functions (queries)
 */
public record Work(Operation operation, long itemBytes, long indexTerms, long indexEntriesRead, long itemsLoaded,
        long bytesLoaded, long rowsReturned, long bytesReturned, long functionCalls, long searchWork) {

    public Work(Operation operation, long itemBytes, long indexTerms, long indexEntriesRead, long itemsLoaded,
            long bytesLoaded, long rowsReturned, long bytesReturned, long functionCalls) {
        this(operation, itemBytes, indexTerms, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned,
                functionCalls, 0);
    }

    public Work(Operation operation, long itemBytes, long indexTerms, long indexEntriesRead, long itemsLoaded,
            long bytesLoaded, long rowsReturned, long bytesReturned) {
        this(operation, itemBytes, indexTerms, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned,
                0, 0);
    }

    /** This work with the search work of the page added. */
    public Work withSearchWork(long units) {
        return units == 0 ? this : new Work(operation, itemBytes, indexTerms, indexEntriesRead, itemsLoaded,
                bytesLoaded, rowsReturned, bytesReturned, functionCalls, searchWork + units);
    }

    public enum Operation {
        READ, READ_NOT_MODIFIED, CREATE, REPLACE, UPSERT, DELETE, PATCH, QUERY, READ_FEED, CHANGE_FEED,
        /** The request that deletes a partition key's items; their removal is priced item by item, as deletes. */
        PARTITION_KEY_DELETE, NONE
    }

    public static final Work NONE = new Work(Operation.NONE, 0, 0, 0, 0, 0, 0, 0, 0);

    public static Work read(long itemBytes) {
        return new Work(Operation.READ, itemBytes, 0, 0, 1, itemBytes, 1, itemBytes, 0);
    }

    public static Work notModified() {
        return new Work(Operation.READ_NOT_MODIFIED, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    public static Work partitionKeyDelete() {
        return new Work(Operation.PARTITION_KEY_DELETE, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    public static Work write(Operation operation, long itemBytes, long indexTerms) {
        return new Work(operation, itemBytes, indexTerms, 0, 0, 0, 0, 0, 0);
    }

    /** A query or feed page that evaluated no function. */
    public static Work scan(Operation operation, long indexEntriesRead, long itemsLoaded, long bytesLoaded,
            long rowsReturned, long bytesReturned) {
        return scan(operation, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned, 0);
    }

    public static Work scan(Operation operation, long indexEntriesRead, long itemsLoaded, long bytesLoaded,
            long rowsReturned, long bytesReturned, long functionCalls) {
        return new Work(operation, 0, 0, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned,
                functionCalls);
    }

}
