package dev.partita.core.query;

import dev.partita.core.error.ServiceException;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Query;
import dev.partita.sql.plan.IndexPredicates;
import java.util.ArrayList;
import java.util.List;

/**
 * The service serves ORDER BY from the index, so it refuses what its index cannot serve: an item on a path the policy
 * does not index, and two or more items without a composite index with the same paths in the same order whose
 * directions all match or are all inverted (query-language.md §1, index-policy documentation). Checked on the query
 * plan request and on every page request, since the SDK sends the rewritten query (with {@code orderByItems}) whose
 * ORDER BY clause is the original one. An aggregate without GROUP BY has one row, so its ORDER BY orders nothing and
 * needs no composite index: the JS SDK's own aggregate tests run {@code SELECT VALUE AVG(r.key) ... ORDER BY r.key,
 * r.field} on a container without one.
 */
final class OrderByIndexRule {
    static final String EXCLUDED = "The index path corresponding to the specified order-by item is excluded.";
    static final String NO_COMPOSITE = "The order by query does not have a corresponding composite index that it can"
            + " be served from.";

    private OrderByIndexRule() {
    }

    static void check(IndexingPolicy policy, SqlQuery query) {
        if (!policy.isIndexing() || !query.hasOrderBy()) {
            return;
        }
        List<Query.OrderItem> items = query.orderBy();
        List<List<String>> paths = new ArrayList<>();
        for (Query.OrderItem item : items) {
            List<String> path = IndexPredicates.rootPath(query.ast(), item.expr());
            if (path == null) {
                return; // not a document path: not an index question
            }
            paths.add(path);
        }
        for (List<String> path : paths) {
            if (!policy.indexesNames(path)) {
                throw ServiceException.badRequest(EXCLUDED);
            }
        }
        if (items.size() > 1 && !(query.hasAggregates() && !query.hasGroupBy())) {
            List<IndexingPolicy.CompositePath> wanted = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                wanted.add(new IndexingPolicy.CompositePath(paths.get(i), items.get(i).descending()));
            }
            if (!policy.hasComposite(wanted)) {
                throw ServiceException.badRequest(NO_COMPOSITE);
            }
        }
    }
}
