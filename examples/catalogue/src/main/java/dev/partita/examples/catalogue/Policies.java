package dev.partita.examples.catalogue;

import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingMode;
import com.azure.cosmos.models.IndexingPolicy;
import java.util.List;

/** The two indexing policies the record compares. */
public final class Policies {
    /** The nine paths the catalogue filters and sorts on. */
    static final List<String> TUNED_PATHS = List.of("/make/?", "/model/?", "/body_style/?", "/province/?",
            "/title_status/?", "/price/?", "/condition_grade/?", "/ends_at/?", "/bid_count/?");

    private Policies() {
    }

    /** Nine indexed paths, everything else excluded, and one composite index per two-key order. */
    public static IndexingPolicy tuned() {
        IndexingPolicy p = new IndexingPolicy();
        p.setIndexingMode(IndexingMode.CONSISTENT);
        p.setIncludedPaths(TUNED_PATHS.stream().map(IncludedPath::new).toList());
        p.setExcludedPaths(List.of(new ExcludedPath("/*")));
        p.setCompositeIndexes(List.of(
                List.of(asc("/price"), asc("/condition_grade")),
                List.of(asc("/make"), asc("/ends_at"))));
        return p;
    }

    /** The service's default: every path indexed, plus the composite the two-key order needs. */
    public static IndexingPolicy everything() {
        IndexingPolicy p = new IndexingPolicy();
        p.setCompositeIndexes(List.of(List.of(asc("/price"), asc("/condition_grade"))));
        return p;
    }

    private static CompositePath asc(String path) {
        return new CompositePath().setPath(path).setOrder(CompositePathSortOrder.ASCENDING);
    }
}
