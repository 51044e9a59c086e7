package dev.partita.server.route;

import dev.partita.core.query.QueryPage;
import java.util.Locale;

/**
 * {@code x-ms-documentdb-query-metrics}, sent when a query asks with {@code x-ms-documentdb-populatequerymetrics:
 * true}: the service's {@code name=value;...} form, every key in its order (the Java SDK's QueryMetrics reads them
 * by name and requires the document counts and the index ratio). The counts are Partita's own — documents loaded and
 * their bytes, rows returned and their bytes, and how many of the loaded documents the index found (all of them when
 * the page read the index, none for a scan), with their ratio. Of the phases of a run Partita times the compile (the
 * query's parse, or the lookup of its cached parse) apart; the page's execution time is the total and the VM
 * execution time, the other phases 0. Times carry four decimals: a cached compile takes microseconds, and the SDKs
 * read the value as a fraction of a millisecond (the Java SDK's query-metrics checks want it above 0).
 */
final class QueryMetricsHeader {
    private static final String UNTIMED_PREPARATION = ";queryLogicalPlanBuildTimeInMs=0.00"
            + ";queryPhysicalPlanBuildTimeInMs=0.00;queryOptimizationTimeInMs=0.00";
    private static final String UNTIMED_RUNTIME = ";indexLookupTimeInMs=0.00;documentLoadTimeInMs=0.00"
            + ";systemFunctionExecuteTimeInMs=0.00;userFunctionExecuteTimeInMs=0.00";

    private QueryMetricsHeader() {
    }

    /** The header of a page that took {@code nanos} to run. */
    static String of(QueryPage page, long nanos) {
        var w = page.work();
        long hits = w.indexEntriesRead() > 0 ? w.itemsLoaded() : 0;
        double ratio = w.itemsLoaded() == 0 ? (w.indexEntriesRead() > 0 ? 1 : 0) : (double) hits / w.itemsLoaded();
        String ms = millis(nanos);
        return "totalExecutionTimeInMs=" + ms
                + ";queryCompileTimeInMs=" + millis(page.compileNanos())
                + UNTIMED_PREPARATION
                + ";VMExecutionTimeInMs=" + ms
                + UNTIMED_RUNTIME
                + ";retrievedDocumentCount=" + w.itemsLoaded()
                + ";retrievedDocumentSize=" + w.bytesLoaded()
                + ";outputDocumentCount=" + w.rowsReturned()
                + ";outputDocumentSize=" + w.bytesReturned()
                + ";writeOutputTimeInMs=0.00"
                + ";indexHitDocumentCount=" + hits
                + ";indexUtilizationRatio=" + String.format(Locale.ROOT, "%.2f", ratio);
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.4f", nanos / 1e6);
    }
}
