package dev.partita.core.capacity;

/**
 * What one operation actually did, in the units the cost model prices. The engine records it as it works (items and
 * index terms written, index entries and items read, rows and bytes returned); the cost model turns it into request
 * units. Keeping the two apart lets a test assert the work and the price separately.
 *
 * @param operation        what kind of operation did the work
 * @param itemBytes        size of the item read or written (point operations; for deletes the removed item's size)
 * @param indexTerms       index terms written or removed under the container's indexing policy (writes)
 * @param indexEntriesRead index entries visited by lookups (queries)
 * @param itemsLoaded      items read from the store (queries, feeds)
 * @param bytesLoaded      stored bytes of those items
 * @param rowsReturned     result rows sent back (queries, feeds)
 * @param bytesReturned    approximate serialized size of those rows
 * @param searchWork       vector elements compared and text terms examined by search functions (queries)
 */
public record Work(Operation operation, long itemBytes, long indexTerms, long indexEntriesRead, long itemsLoaded,
        long bytesLoaded, long rowsReturned, long bytesReturned, long searchWork) {

    public Work(Operation operation, long itemBytes, long indexTerms, long indexEntriesRead, long itemsLoaded,
            long bytesLoaded, long rowsReturned, long bytesReturned) {
        this(operation, itemBytes, indexTerms, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned,
                0);
    }

    /** This work with the search work of the page added. */
    public Work withSearchWork(long units) {
        return units == 0 ? this : new Work(operation, itemBytes, indexTerms, indexEntriesRead, itemsLoaded,
                bytesLoaded, rowsReturned, bytesReturned, searchWork + units);
    }

    public enum Operation {
        READ, READ_NOT_MODIFIED, CREATE, REPLACE, UPSERT, DELETE, PATCH, QUERY, READ_FEED, CHANGE_FEED, NONE
    }

    public static final Work NONE = new Work(Operation.NONE, 0, 0, 0, 0, 0, 0, 0);

    public static Work read(long itemBytes) {
        return new Work(Operation.READ, itemBytes, 0, 0, 1, itemBytes, 1, itemBytes);
    }

    public static Work notModified() {
        return new Work(Operation.READ_NOT_MODIFIED, 0, 0, 0, 0, 0, 0, 0);
    }

    public static Work write(Operation operation, long itemBytes, long indexTerms) {
        return new Work(operation, itemBytes, indexTerms, 0, 0, 0, 0, 0);
    }

    public static Work scan(Operation operation, long indexEntriesRead, long itemsLoaded, long bytesLoaded,
            long rowsReturned, long bytesReturned) {
        return new Work(operation, 0, 0, indexEntriesRead, itemsLoaded, bytesLoaded, rowsReturned, bytesReturned);
    }

}
