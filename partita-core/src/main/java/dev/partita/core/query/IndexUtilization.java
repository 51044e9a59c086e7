package dev.partita.core.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.index.IndexingPolicy;
import dev.partita.core.json.Json;
import dev.partita.sql.SqlQuery;
import dev.partita.sql.ast.Query;
import dev.partita.sql.plan.IndexPredicates;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The index metrics a query asks for ({@code populateIndexMetrics}): which single-path indexes its filter used, which
 * it would have used had the policy indexed the path, and the composite indexes its filter and ORDER BY were (or would
 * be) served from. The service's shape (the SDKs' {@code IndexUtilizationInfo}): every entry names an index spec
 * ({@code /name/?}, or {@code /a ASC} lists for composites) and an impact score; the filter expression is left empty
 * (it would repeat the query's constants). Partita uses every indexed filter path, so "utilized" is exactly the
 * sargable conjuncts ({@link IndexPredicates}) on indexed paths.
 */
public record IndexUtilization(List<Single> utilizedSingle, List<Single> potentialSingle,
        List<Composite> utilizedComposite, List<Composite> potentialComposite) {

    /** A single-path index: {@code /a/b/?}. */
    public record Single(String indexSpec) {
    }

    /** A composite index: {@code ["/a ASC", "/b DESC"]}. */
    public record Composite(List<String> indexSpecs) {
    }

    private static final String IMPACT = "High";

    /** What the query's filter and ordering use of {@code policy}. */
    public static IndexUtilization of(SqlQuery query, Map<String, JsonNode> params, IndexingPolicy policy) {
        Query ast = query.ast();
        List<Single> utilized = new ArrayList<>();
        List<Single> potential = new ArrayList<>();
        // equality paths first, then the others: the order a composite index serving them must have
        Set<List<String>> equal = new LinkedHashSet<>();
        Set<List<String>> other = new LinkedHashSet<>();
        for (IndexPredicates.Predicate p : IndexPredicates.of(ast, params)) {
            Single single = new Single(spec(p.path()) + "/?");
            List<Single> list = policy.indexesNames(p.path()) ? utilized : potential;
            if (!list.contains(single)) {
                list.add(single);
            }
            (p instanceof IndexPredicates.Equal ? equal : other).add(p.path());
        }
        List<IndexingPolicy.CompositePath> wanted = new ArrayList<>();
        equal.forEach(path -> wanted.add(new IndexingPolicy.CompositePath(path, false)));
        other.stream().filter(path -> !equal.contains(path))
                .forEach(path -> wanted.add(new IndexingPolicy.CompositePath(path, false)));
        boolean ordered = true;
        for (Query.OrderItem item : ast.orderBy()) {
            List<String> path = IndexPredicates.rootPath(ast, item.expr());
            if (path == null) {
                ordered = false;
                break;
            }
            if (!equal.contains(path)) {
                wanted.removeIf(c -> c.steps().equals(path));
                wanted.add(new IndexingPolicy.CompositePath(path, item.descending()));
            }
        }
        List<Composite> utilizedComposite = new ArrayList<>();
        List<Composite> potentialComposite = new ArrayList<>();
        if (ordered && wanted.size() > 1) {
            Composite composite = new Composite(wanted.stream()
                    .map(c -> spec(c.steps()) + (c.descending() ? " DESC" : " ASC")).toList());
            (policy.hasComposite(wanted) ? utilizedComposite : potentialComposite).add(composite);
        }
        return new IndexUtilization(utilized, potential, utilizedComposite, potentialComposite);
    }

    private static String spec(List<String> path) {
        return "/" + String.join("/", path);
    }

    /** The JSON the service returns (the SDKs decode it). */
    public ObjectNode toJson() {
        ObjectNode out = Json.object();
        singles(out.putArray("UtilizedSingleIndexes"), utilizedSingle);
        singles(out.putArray("PotentialSingleIndexes"), potentialSingle);
        composites(out.putArray("UtilizedCompositeIndexes"), utilizedComposite);
        composites(out.putArray("PotentialCompositeIndexes"), potentialComposite);
        return out;
    }

    private static void singles(ArrayNode out, List<Single> singles) {
        for (Single s : singles) {
            out.addObject().put("FilterExpression", "").put("IndexSpec", s.indexSpec()).put("FilterPreciseSet", true)
                    .put("IndexPreciseSet", true).put("IndexImpactScore", IMPACT);
        }
    }

    private static void composites(ArrayNode out, List<Composite> composites) {
        for (Composite c : composites) {
            ObjectNode o = out.addObject();
            c.indexSpecs().forEach(o.putArray("IndexSpecs")::add);
            o.put("IndexPreciseSet", true).put("IndexImpactScore", IMPACT);
        }
    }
}
