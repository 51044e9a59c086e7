package dev.partita.cli.migrate;

import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.ExcludedPath;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingMode;
import com.azure.cosmos.models.IndexingPolicy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads an indexing policy in the service's JSON form (as the portal shows it) into the SDK's model, through its
 * public setters only: indexing mode, automatic, included and excluded paths, composite indexes. Other sections
 * (spatial, vector, full text) are refused rather than silently dropped.
 */
final class IndexingPolicyFile {
    private static final List<String> KNOWN = List.of("indexingMode", "automatic", "includedPaths", "excludedPaths",
            "compositeIndexes");

    private IndexingPolicyFile() {
    }

    static IndexingPolicy read(Path file) throws IOException {
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException(file + " is not a JSON object");
        }
        List<String> unknown = new ArrayList<>();
        json.fieldNames().forEachRemaining(f -> {
            if (!KNOWN.contains(f)) {
                unknown.add(f);
            }
        });
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(file + ": unsupported indexing policy section(s) " + unknown
                    + "; supported: " + KNOWN);
        }
        IndexingPolicy policy = new IndexingPolicy();
        if (json.has("indexingMode")) {
            policy.setIndexingMode(IndexingMode.valueOf(json.get("indexingMode").asText().toUpperCase(Locale.ROOT)));
        }
        if (json.has("automatic")) {
            policy.setAutomatic(json.get("automatic").asBoolean());
        }
        List<IncludedPath> included = new ArrayList<>();
        json.path("includedPaths").forEach(p -> included.add(new IncludedPath(p.path("path").asText())));
        policy.setIncludedPaths(included);
        List<ExcludedPath> excluded = new ArrayList<>();
        json.path("excludedPaths").forEach(p -> excluded.add(new ExcludedPath(p.path("path").asText())));
        policy.setExcludedPaths(excluded);
        List<List<CompositePath>> composites = new ArrayList<>();
        json.path("compositeIndexes").forEach(index -> {
            List<CompositePath> paths = new ArrayList<>();
            index.forEach(p -> paths.add(new CompositePath().setPath(p.path("path").asText())
                    .setOrder("descending".equalsIgnoreCase(p.path("order").asText())
                            ? CompositePathSortOrder.DESCENDING : CompositePathSortOrder.ASCENDING)));
            composites.add(paths);
        });
        policy.setCompositeIndexes(composites);
        return policy;
    }
}
