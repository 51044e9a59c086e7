package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A container's indexing policy, parsed and validated: the mode, the included and excluded paths with the service's
 * precedence (among the paths that cover a value, the most precise one decides), and the composite indexes. Spatial
 * indexes are validated and stored by {@link IndexingPolicyShape} (spatial functions scan); vector and full-text
 * indexes are validated and used through {@link ContainerSearch}. {@code id} and {@code _ts} are always indexed while the container indexes at all.
 */
public final class IndexingPolicy {
    /**
     * Paths per composite index: the service allows 2 to 8 (index-policy documentation). Kept here rather than in
     * {@code Limits} because it is a validation rule of the policy format, not a capacity.
     */
    static final int MIN_COMPOSITE_PATHS = 2;
    static final int MAX_COMPOSITE_PATHS = 8;

    /** The default policy: everything but {@code _etag}. */
    public static final IndexingPolicy DEFAULT = parse(dev.partita.core.json.Json.parse(
            "{\"indexingMode\":\"consistent\",\"automatic\":true,\"includedPaths\":[{\"path\":\"/*\"}],"
                    + "\"excludedPaths\":[{\"path\":\"/\\\"_etag\\\"/?\"}]}", "default indexing policy"));

    /** One path of a composite index with its direction. */
    public record CompositePath(List<String> steps, boolean descending) {
        public CompositePath {
            steps = List.copyOf(steps);
        }
    }

    /** The policy as stored in the container's properties (what an index build is recorded against). */
    private final JsonNode source;
    private final boolean indexing;
    private final List<IndexPath> included;
    private final List<IndexPath> excluded;
    private final List<List<CompositePath>> composites;
    private final List<List<String>> explicitScalarPaths;
    private final ComputedProperties computed;
    private final PathDecisions decisions = new PathDecisions(this);

    private IndexingPolicy(JsonNode source, boolean indexing, List<IndexPath> included, List<IndexPath> excluded,
            List<List<CompositePath>> composites, ComputedProperties computed) {
        this.source = source;
        this.computed = computed;
        this.indexing = indexing;
        this.included = List.copyOf(included);
        this.excluded = List.copyOf(excluded);
        this.composites = List.copyOf(composites);
        List<List<String>> explicit = new ArrayList<>();
        for (IndexPath x : this.included) {
            if (!x.subtree() && !x.steps().contains(IndexPath.ANY_ELEMENT) && indexesNames(x.steps())) {
                explicit.add(x.steps());
            }
        }
        this.explicitScalarPaths = List.copyOf(explicit);
    }

    /**
     * The policy of a container from its stored {@code indexingPolicy} property (parsed once, when the catalog
     * publishes the container). A policy stored before validation existed indexes everything rather than failing every
     * operation on the container.
     */
    public static IndexingPolicy ofStored(JsonNode source) {
        IndexingPolicy p;
        try {
            p = source == null || source.isNull() ? DEFAULT : parse(source);
        } catch (ServiceException e) {
            p = DEFAULT;
        }
        return p.source == source ? p
                : new IndexingPolicy(source, p.indexing, p.included, p.excluded, p.composites, p.computed);
    }

    /** This policy for a container with these computed properties, which it indexes only where it names them. */
    public IndexingPolicy withComputed(ComputedProperties properties) {
        return new IndexingPolicy(source, indexing, included, excluded, composites, properties);
    }

    /** This policy's decisions per document path, remembered as items are indexed. */
    PathDecisions decisions() {
        return decisions;
    }

    /** The container's computed properties (what queries and the index add to each item). */
    public ComputedProperties computed() {
        return computed;
    }

    /** The policy as stored, or null for a container stored without one. */
    public JsonNode source() {
        return source;
    }

    /**
     * Parses and validates a policy as stored (defaults already filled in by the container properties). Every
     * problem is a 400 naming the field and the fix.
     */
    public static IndexingPolicy parse(JsonNode p) {
        if (p == null || !p.isObject()) {
            throw ServiceException.badRequest("The container's 'indexingPolicy' must be a JSON object.");
        }
        String mode = p.path("indexingMode").asText("consistent").toLowerCase(Locale.ROOT);
        boolean automatic = p.path("automatic").asBoolean(true);
        List<IndexPath> included = paths(p, "includedPaths");
        List<IndexPath> excluded = paths(p, "excludedPaths");
        boolean indexing = !"none".equals(mode) && automatic;
        if (!"none".equals(mode)) {
            Set<List<Object>> in = new HashSet<>();
            included.forEach(x -> in.add(x.identity()));
            for (IndexPath x : excluded) {
                if (in.contains(x.identity())) {
                    throw ServiceException.badRequest("The indexing policy path '" + x.text() + "' is both included"
                            + " and excluded; list it in only one of 'includedPaths' and 'excludedPaths'.");
                }
            }
            if (included.stream().noneMatch(IndexPath::isRoot) && excluded.stream().noneMatch(IndexPath::isRoot)) {
                throw ServiceException.badRequest("The special mandatory indexing path \"/\" is not provided in any of"
                        + " the path type sets. Please provide this path in one of the sets.");
            }
        }
        return new IndexingPolicy(p, indexing, included, excluded, composites(p.get("compositeIndexes")),
                ComputedProperties.NONE);
    }

    private static List<IndexPath> paths(JsonNode p, String list) {
        JsonNode paths = p.get(list);
        List<IndexPath> out = new ArrayList<>();
        if (paths == null || paths.isNull()) {
            return out;
        }
        if (!paths.isArray()) {
            throw ServiceException.badRequest("The indexing policy's '" + list + "' must be an array.");
        }
        Set<List<Object>> seen = new HashSet<>();
        for (JsonNode entry : paths) {
            JsonNode path = entry.get("path");
            if (path == null || !path.isTextual()) {
                throw ServiceException.badRequest("Every entry of the indexing policy's '" + list + "' needs a string"
                        + " 'path'.");
            }
            IndexPath parsed = IndexPath.parse(path.asText());
            if (!seen.add(parsed.identity())) {
                throw ServiceException.badRequest("The indexing policy path '" + parsed.text() + "' appears twice in '"
                        + list + "'.");
            }
            out.add(parsed);
        }
        return out;
    }

    private static List<List<CompositePath>> composites(JsonNode node) {
        List<List<CompositePath>> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            throw ServiceException.badRequest("The indexing policy's 'compositeIndexes' must be an array of arrays.");
        }
        for (JsonNode index : node) {
            if (!index.isArray() || index.size() < MIN_COMPOSITE_PATHS || index.size() > MAX_COMPOSITE_PATHS) {
                throw ServiceException.badRequest("Every composite index must be an array of " + MIN_COMPOSITE_PATHS
                        + " to " + MAX_COMPOSITE_PATHS + " paths.");
            }
            List<CompositePath> paths = new ArrayList<>();
            for (JsonNode entry : index) {
                JsonNode path = entry.get("path");
                if (path == null || !path.isTextual()) {
                    throw ServiceException.badRequest("Every composite index path needs a string 'path'.");
                }
                String order = entry.path("order").asText("ascending").toLowerCase(Locale.ROOT);
                if (!order.equals("ascending") && !order.equals("descending")) {
                    throw ServiceException.badRequest("A composite index path's 'order' must be 'ascending' or"
                            + " 'descending'.");
                }
                paths.add(new CompositePath(IndexPath.parseComposite(path.asText()), order.equals("descending")));
            }
            out.add(paths);
        }
        return out;
    }

    /** False for mode {@code none} (and for non-automatic policies): items produce no index terms. */
    public boolean isIndexing() {
        return indexing;
    }

    public List<List<CompositePath>> compositeIndexes() {
        return composites;
    }

    /**
     * True when a composite index has exactly these paths in this order, each in the wanted direction or all of them
     * inverted (an index serves a sort and its reverse).
     */
    public boolean hasComposite(List<CompositePath> wanted) {
        for (List<CompositePath> index : composites) {
            if (index.size() != wanted.size()) {
                continue;
            }
            boolean same = true;
            boolean inverted = true;
            for (int i = 0; i < index.size() && (same || inverted); i++) {
                if (!index.get(i).steps().equals(wanted.get(i).steps())) {
                    same = inverted = false;
                } else {
                    boolean match = index.get(i).descending() == wanted.get(i).descending();
                    same &= match;
                    inverted &= !match;
                }
            }
            if (same || inverted) {
                return true;
            }
        }
        return false;
    }

    /** True when the scalar at this document path (names and array positions) is indexed. */
    public boolean indexes(List<Object> docPath) {
        if (!indexing) {
            return false;
        }
        if (docPath.size() == 1 && ("id".equals(docPath.get(0)) || "_ts".equals(docPath.get(0)))) {
            return true;
        }
        int best = -1;
        boolean include = false;
        boolean computedPath = !docPath.isEmpty() && docPath.get(0) instanceof String first && computed.defines(first);
        for (IndexPath x : included) {
            if (computedPath && !namesFirstStep(x, docPath.get(0))) {
                continue; // a computed property is indexed only where an included path names it
            }
            if (x.precision() > best && x.matches(docPath)) {
                best = x.precision();
                include = true;
            }
        }
        for (IndexPath x : excluded) {
            if (x.precision() >= best && x.matches(docPath)) {
                best = x.precision();
                include = false;
            }
        }
        return include;
    }

    private static boolean namesFirstStep(IndexPath x, Object name) {
        return !x.steps().isEmpty() && x.steps().get(0).equals(name);
    }

    /** True when a property path (names only, as a query writes it) is indexed. */
    public boolean indexesNames(List<String> names) {
        return indexes(new ArrayList<>(names));
    }

    /** True when some included path could cover a value at or below this prefix (lets the walk skip subtrees). */
    boolean mayIndexBelow(List<Object> prefix) {
        if (prefix.size() == 1 && ("id".equals(prefix.get(0)) || "_ts".equals(prefix.get(0)))) {
            return true;
        }
        for (IndexPath x : included) {
            if (x.mayCoverBelow(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The explicitly included scalar paths without array steps: the service writes an entry for each even when the
     * item lacks the value (capacity.md §1.3), so they count as terms for every item.
     */
    List<List<String>> explicitScalarPaths() {
        return explicitScalarPaths;
    }

    /**
     * True when the index marks the items whose value at this path is undefined or an array or object (an explicitly
     * included scalar path gets an undefined term for them), so they can be found without reading every item.
     */
    public boolean marksNonScalars(List<String> path) {
        return explicitScalarPaths.contains(path);
    }
}
