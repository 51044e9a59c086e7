package dev.partita.core.capacity;

/**
 * The one RU price list: turns the {@link Work} an operation actually did into request units. Deterministic (the same
 * work on the same data costs the same), rounded to hundredths as the service reports charges.
 *
 * <p>The formula, with where each constant comes from (capacity.md §1; the calibration test holds the published
 * figures within ±10%):
 * <pre>
 * point read          max(1, sqrt(KB))                               1 KB = 1 RU, 100 KB = 10 RU [S2]
 * 304 not modified    1                                              [S42 azure-docs#29850]
 * create              5 x read(KB) + 0.25 x indexTerms               ~1 KB, default indexing = 5.7 [S28]; default
 *                                                                    policy 1.8x a nine-path policy, 8.84 a vehicle
 *                                                                    under it (seed 003)
 * replace (patch)     2 x 5 x read(KB) + 0.25 x indexTerms           ~2x the insert [S2]: the old version's terms are
 *                                                                    removed and the new one's written (indexTerms
 *                                                                    counts both)
 * delete              5 x read(KB) + 0.25 x indexTerms               no figure; a delete does an insert's work backwards
 * partition key       1 for the request; then each item as a delete  no figure; the request only marks the partition,
 *   delete            (the background removal, within 10% of the     the removal is paced by the documented share of
 *                     partition's RU/s)                              the container's RU/s [how-to-delete-by-pk]
 * upsert              create or replace, whichever it did            no figure; recorded by the engine as either
 * query page          2.78 + 0.003/index entry read                  id query missing the pk 2.83 vs read 1.00 (seed
 *                     + 0.001/item loaded + 0.000885/KB loaded       003); page of 100 x 0.8 KB = 6 (seed 003);
 *                     + 0.015/row returned + 0.015/KB returned       excluded path 409.51 vs indexed 2.98 [S29];
 *                     + 0.026/function call evaluated                CONTAINS over a scan 8.12 vs a plain page 5.98
 *                                                                    (seed 003)
 *                     (+ 2.78 per further partition one request ran   "2-3 RU per physical partition" [S12]; the SDK
 *                     on)                                            sends one request per partition, paying it there)
 * change-feed page    2 + the query's per-item terms; 1 when empty   "~2 RU initial" (UNCONFIRMED thread); empty = 304
 * metadata request    1                                              no figure; flat and small
 * failed request      1 (429: 0)                                     failures are charged [S10]; throttles are not
 * script execution    its operations, each as above; at least 1      "stored procedures/triggers cost according to
 *                                                                    the work they do" [S1]
 * </pre>
 * Reads (point, query, feeds) at Strong or Bounded Staleness cost double: two replicas answer [S22].
 */
public final class CostModel {
    /** A write's work apart from indexing, per "read unit" of its size: 1 KB write = 5 RU vs read 1 RU [S42]. */
    static final double WRITE_PER_READ_UNIT = 5.0;
    /**
     * Each index entry a write adds or removes: one per indexed path value (id, _ts and the system properties under
     * "index everything") and one per composite index, which holds an entry for every item too. Chosen so that a
     * ~1 KB item with default indexing costs ~5.7 RU (S28's user item) and seed 003's ~0.8 KB vehicle document (35
     * values, ~40 entries under "index everything") costs 1.8x its write under the nine included paths and two
     * composite indexes of the tuned policy (13 entries with id and _ts: 8.25 RU against the record's 8.84). Pricing a term by the characters it holds
     * (measured: 0.18/term + 0.039/character brings the generated seed to the record's 8.84 RU and 1.8x) was tried and
     * left out: it prices a 1 KB item that is one long string at ~10 RU against the documented ~5.7.
     */
    static final double PER_INDEX_TERM = 0.25;

    /**
     * What every query page pays before any item: parsing, planning, the index seek. Calibrated by seed 003's id query
     * that misses the partition key (2.83 RU on one physical partition, 1 item) and the minimum query (≥ 2.3, S39).
     * The SDK sends one request per physical partition, so a fan-out pays it once per partition touched, which is the
     * "2-3 RU per physical partition" of S12.
     */
    static final double QUERY_BASE = 2.78;
    /**
     * Each index entry a lookup visits: small, since a page of 100 costs ~6 RU in all whether it came through an index
     * (seed 003's province page, 5.98) or straight from the partition key (the pinned page, 5.86).
     */
    static final double PER_INDEX_ENTRY = 0.003;
    /**
     * Each item loaded from the store, and each KB loaded: a scan of S29's data (60,951 items, ~400 MB) for an
     * equality on an excluded path costs 409.51 RU, so loading is about 1 RU per MB plus a little per item.
     */
    static final double PER_ITEM_LOADED = 0.001;
    static final double PER_KB_LOADED = 0.000885;
    /**
     * Each function call (built-in or user-defined) the query evaluated: seed 003's CONTAINS page costs 8.12 RU where
     * a plain page of the same 100 vehicles costs ~6, the difference being one CONTAINS per item the scan evaluated.
     */
    static final double PER_FUNCTION_CALL = 0.026;
    /** Each row returned and each KB returned: what lifts a 100-row page to ~6 RU (seed 003). */
    static final double PER_ROW_RETURNED = 0.015;
    static final double PER_KB_RETURNED = 0.015;
    /**
     * Each 1,000 units of search work (vector elements compared, text terms examined). The service publishes no
     * figure for vector or full-text work; chosen so that a brute-force top-k over 100,000 vectors of 768 dimensions
     * (76.8 million elements) costs about as much again as loading those items (~600 MB, ~530 RU): ~380 RU more.
     */
    static final double PER_1K_SEARCH_WORK = 0.005;
    /** A change-feed page with changes: a nominal 2 RU plus its items as a query would pay (UNCONFIRMED thread). */
    static final double CHANGE_FEED_BASE = 2.0;
    /** A conditional read that matched, an empty change-feed page, a metadata request: nominal 1 RU. */
    static final double NOMINAL = 1.0;
    /** Strong and bounded-staleness reads read two replicas. */
    static final double STRONG_READ_FACTOR = 2.0;

    private static final double KB = 1024.0;

    public static final CostModel DEFAULT = new CostModel();

    /** The charge of {@code work}; {@code strongRead} doubles reads (Strong or Bounded Staleness asked for). */
    public double price(Work work, boolean strongRead) {
        double ru = switch (work.operation()) {
            case NONE -> 0;
            case READ -> pointRead(work.itemBytes());
            case READ_NOT_MODIFIED, PARTITION_KEY_DELETE -> NOMINAL;
            case CREATE, UPSERT, DELETE -> write(work, 1);
            case REPLACE, PATCH -> write(work, 2);
            case QUERY, READ_FEED -> QUERY_BASE + perItem(work);
            case CHANGE_FEED -> work.rowsReturned() == 0 && work.itemsLoaded() == 0 ? NOMINAL
                    : CHANGE_FEED_BASE + perItem(work);
        };
        // exactly twice what the same read costs at session consistency
        return strongRead && isRead(work.operation()) ? round(round(ru) * STRONG_READ_FACTOR) : round(ru);
    }

    /**
     * The charge of a query page that ran on {@code partitionsTouched} physical partitions in one request (the SDK
     * sends one request per partition, so this is 1 for its pages): every partition pays the query's base cost.
     */
    public double price(Work work, boolean strongRead, int partitionsTouched) {
        double extra = work.operation() == Work.Operation.QUERY || work.operation() == Work.Operation.READ_FEED
                ? QUERY_BASE * Math.max(0, partitionsTouched - 1) : 0;
        double once = price(work, strongRead);
        return extra == 0 ? once : round(once + (strongRead ? STRONG_READ_FACTOR : 1) * extra);
    }

    /** The charge of {@code work} at session (or weaker) consistency. */
    public double price(Work work) {
        return price(work, false);
    }

    /** Database, container, offer, user and permission requests, and the query plan's own: a flat nominal charge. */
    public double metadata() {
        return NOMINAL;
    }

    /**
     * A stored procedure's (or a trigger-wrapped write's) charge: the sum of what its operations did, each priced as
     * the same request would be on its own, and never less than the nominal charge of any request.
     */
    public double script(double operations) {
        return round(Math.max(NOMINAL, operations));
    }

    /** A request the engine refused: 429s are not billed [S42 azure-sdk-for-java#32694]; other failures are. */
    public double failed(int status) {
        return status == 429 ? 0 : NOMINAL;
    }

    /** A point read of an item of {@code bytes}: through (1 KB, 1 RU) and (100 KB, 10 RU), never below 1. */
    static double pointRead(long bytes) {
        return Math.max(1.0, Math.sqrt(bytes / KB));
    }

    private static double write(Work w, int passes) {
        return passes * WRITE_PER_READ_UNIT * pointRead(w.itemBytes()) + PER_INDEX_TERM * w.indexTerms();
    }

    private static double perItem(Work w) {
        return PER_INDEX_ENTRY * w.indexEntriesRead() + PER_FUNCTION_CALL * w.functionCalls()
                + PER_ITEM_LOADED * w.itemsLoaded() + PER_KB_LOADED * (w.bytesLoaded() / KB)
                + PER_ROW_RETURNED * w.rowsReturned() + PER_KB_RETURNED * (w.bytesReturned() / KB)
                + PER_1K_SEARCH_WORK * (w.searchWork() / 1000.0);
    }

    private static boolean isRead(Work.Operation op) {
        return switch (op) {
            case READ, READ_NOT_MODIFIED, QUERY, READ_FEED, CHANGE_FEED -> true;
            default -> false;
        };
    }

    static double round(double ru) {
        return Math.round(ru * 100) / 100.0;
    }
}
