package dev.partita.cli.migrate;

import dev.partita.core.request.RequestOptions;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compares the source and the target item by item (identity and checksum, see {@link ItemKeys}) and, optionally, the
 * counts per value of one property; and repairs the differences it found by re-reading each one from the source.
 *
 * <p>The target is scanned first, then the source. So an item the target has and the source lacks was absent from the
 * source after it was copied: deleted there (the latest-version feed carries no deletes) or never there. An identity
 * the target holds twice is a stale copy: the source changed a target-key property after the item was copied, so the
 * upsert of the new version landed in another logical partition. Repair
 * re-reads each difference from the source before acting, so a write that lands meanwhile is copied, not lost.
 * Memory: one identity and a 32-character checksum per item.
 */
final class Verifier {
    private final CosmosAsyncContainer source;
    private final CosmosAsyncContainer target;
    private final List<String> sourceKey;
    private final List<String> targetKey;
    private final RuBudget budget;
    private final int pageSize;

    Verifier(CosmosAsyncContainer source, CosmosAsyncContainer target, List<String> sourceKey, List<String> targetKey,
            RuBudget budget, int pageSize) {
        this.source = source;
        this.target = target;
        this.sourceKey = sourceKey;
        this.targetKey = targetKey;
        this.budget = budget;
        this.pageSize = pageSize;
    }

    /** One side's checksums by identity, identities seen more than once, items and counts by property value. */
    private record Side(Map<String, String> checksums, Set<String> duplicates, long items, Map<String, Long> counts) {
    }

    Verification verify(String property) {
        Side t = scan(target, property);
        Side s = scan(source, property);
        List<String> missing = new ArrayList<>();
        List<String> different = new ArrayList<>();
        s.checksums().forEach((identity, sum) -> {
            String other = t.checksums().get(identity);
            if (other == null) {
                missing.add(identity);
            } else if (!other.equals(sum) && !t.duplicates().contains(identity)) {
                different.add(identity);
            }
        });
        List<String> extra = t.checksums().keySet().stream().filter(i -> !s.checksums().containsKey(i)).toList();
        Map<String, long[]> counts = new TreeMap<>();
        s.counts().forEach((v, n) -> counts.computeIfAbsent(v, k -> new long[2])[0] = n);
        t.counts().forEach((v, n) -> counts.computeIfAbsent(v, k -> new long[2])[1] = n);
        List<String> duplicated = t.duplicates().stream().filter(s.checksums()::containsKey).sorted().toList();
        return new Verification(s.items(), t.items(), missing, extra, different, duplicated, property, counts);
    }

    private Side scan(CosmosAsyncContainer container, String property) {
        Map<String, String> checksums = new HashMap<>();
        Set<String> duplicates = new HashSet<>();
        long items = 0;
        Map<String, Long> counts = new HashMap<>();
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions()
                .setThroughputControlGroupName(Migration.GROUP);
        for (FeedResponse<ObjectNode> page : container.queryItems("SELECT * FROM c", options, ObjectNode.class)
                .byPage(pageSize).toIterable(1)) {
            budget.spend(page.getRequestCharge());
            for (ObjectNode item : page.getResults()) {
                items++;
                if (checksums.put(ItemKeys.identity(item, sourceKey), ItemKeys.checksum(item)) != null) {
                    duplicates.add(ItemKeys.identity(item, sourceKey));
                }
                if (property != null) {
                    JsonNode v = ItemKeys.at(item, property);
                    counts.merge(v == null ? "(missing)" : v.toString(), 1L, Long::sum);
                }
            }
        }
        return new Side(checksums, duplicates, items, counts);
    }

    /**
     * Makes the target match the source for these identities: upserts the source's version (removing a target copy
     * that sits under another target key) or, when the source no longer has the item, deletes the target's.
     *
     * @return the number of target writes
     */
    int repair(List<String> identities) {
        int writes = 0;
        for (String identity : identities) {
            String id = ItemKeys.idOf(identity);
            ObjectNode wanted = byId(source, id, identity).stream().findFirst().orElse(null);
            String wantedKey = wanted == null ? null : ItemKeys.partitionKey(wanted, targetKey).toString();
            for (ObjectNode copy : byId(target, id, identity)) {
                PartitionKey key = ItemKeys.partitionKey(copy, targetKey);
                if (!key.toString().equals(wantedKey)) {
                    CosmosItemRequestOptions options = new CosmosItemRequestOptions();
                    options.setThroughputControlGroupName(Migration.GROUP);
                    budget.spend(target.deleteItem(id, key, options).block().getRequestCharge());
                    writes++;
                }
            }
            if (wanted != null) {
                CosmosItemRequestOptions options = new CosmosItemRequestOptions();
                options.setThroughputControlGroupName(Migration.GROUP);
                budget.spend(target.upsertItem(ItemKeys.content(wanted), ItemKeys.partitionKey(wanted, targetKey),
                        options).block().getRequestCharge());
                writes++;
            }
        }
        return writes;
    }

    /** The container's items with this id and identity (a cross-partition query: repairs are few). */
    private List<ObjectNode> byId(CosmosAsyncContainer container, String id, String identity) {
        SqlQuerySpec query = new SqlQuerySpec("SELECT * FROM c WHERE c.id = @id", new SqlParameter("@id", id));
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions()
                .setThroughputControlGroupName(Migration.GROUP);
        List<ObjectNode> out = new ArrayList<>();
        for (FeedResponse<ObjectNode> page : container.queryItems(query, options, ObjectNode.class).byPage()
                .toIterable(1)) {
            budget.spend(page.getRequestCharge());
            page.getResults().stream().filter(i -> ItemKeys.identity(i, sourceKey).equals(identity)).forEach(out::add);
        }
        return out;
    }
}
