package dev.partita.server.route;

import dev.partita.core.query.QueryPage;
import java.util.Locale;

/**
 * {@code x-ms-documentdb-query-metrics}, sent when a query asks with {@code x-ms-documentdb-populatequerymetrics:
 * true}: the service's {@code name=value;...} form with the counts Partita knows — documents loaded and their bytes,
 * rows returned and their bytes, and how many of the loaded documents the index found (all of them when the page
 * read the index, none for a scan), with their ratio.
 */
final class QueryMetricsHeader {
    private QueryMetricsHeader() {
    }

    static String of(QueryPage page) {
        var w = page.work();
        long hits = w.indexEntriesRead() > 0 ? w.itemsLoaded() : 0;
        double ratio = w.itemsLoaded() == 0 ? (w.indexEntriesRead() > 0 ? 1 : 0) : (double) hits / w.itemsLoaded();
        return "retrievedDocumentCount=" + w.itemsLoaded()
                + ";retrievedDocumentSize=" + w.bytesLoaded()
                + ";outputDocumentCount=" + w.rowsReturned()
                + ";outputDocumentSize=" + w.bytesReturned()
                + ";indexHitDocumentCount=" + hits
                + ";indexUtilizationRatio=" + String.format(Locale.ROOT, "%.2f", ratio);
    }
}
