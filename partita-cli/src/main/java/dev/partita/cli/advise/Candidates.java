package dev.partita.cli.advise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys worth trying for a sample: every top-level scalar field with enough distinct values, {@code /id},
 * hierarchical combinations (coarse field first) of up to three of the best fields, the concatenation of the two
 * best, and the coarsest field hashed into buckets.
 */
final class Candidates {
    /** A field needs at least this many distinct values to spread data at all. */
    static final int MIN_DISTINCT = 5;
    static final int BEST_FIELDS = 4;
    static final int HASH_BUCKETS = 16;

    private Candidates() {
    }

    static List<Candidate> of(List<ObjectNode> sample) {
        return of(sample, Set.of());
    }

    /**
     * @param workloadFields the fields the workload filters on or knows; combinations (hierarchical and synthetic
     *                       keys) are built from these only, since a combination of fields nobody asks for cannot
     *                       make an operation cheaper. Empty: from every field.
     */
    static List<Candidate> of(List<ObjectNode> sample, Set<String> workloadFields) {
        Map<String, Set<String>> distinct = new LinkedHashMap<>();
        Map<String, Integer> present = new HashMap<>();
        for (ObjectNode item : sample) {
            item.properties().forEach(e -> {
                JsonNode v = e.getValue();
                if (e.getKey().startsWith("_") || !v.isValueNode() || v.isNull()) {
                    return;
                }
                distinct.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(Candidate.text(v));
                present.merge(e.getKey(), 1, Integer::sum);
            });
        }
        List<String> fields = new ArrayList<>();
        distinct.forEach((field, values) -> {
            // a field missing from items would put them all under the "none" key: not a candidate on its own
            if (!field.equals("id") && values.size() >= MIN_DISTINCT && present.get(field) == sample.size()) {
                fields.add(field);
            }
        });
        List<Candidate> out = new ArrayList<>();
        out.add(Candidate.path("id"));
        fields.forEach(f -> out.add(Candidate.path(f)));
        // coarse fields group items (a tenant, a make); fine ones nearly identify them (a shipment, the id)
        List<String> combinable = fields.stream().filter(f -> workloadFields.isEmpty() || workloadFields.contains(f))
                .toList();
        List<String> coarse = combinable.stream().filter(f -> distinct.get(f).size() < sample.size() / 2)
                .sorted(Comparator.comparingDouble((String f) -> Distribution.largestShare(sample, Candidate.path(f)))
                        .thenComparing(f -> f))
                .limit(BEST_FIELDS).sorted(Comparator.comparingInt((String f) -> distinct.get(f).size())
                        .thenComparing(f -> f)).toList();
        List<String> fine = new ArrayList<>(combinable.stream()
                .filter(f -> distinct.get(f).size() >= sample.size() / 2).toList());
        fine.add("id");
        // hierarchical keys go from coarse to fine: the prefix keeps a group together, the next level spreads it
        for (String c : coarse) {
            for (String f : fine) {
                out.add(Candidate.hierarchical(List.of(c, f)));
            }
        }
        for (int i = 0; i < coarse.size(); i++) {
            for (int j = i + 1; j < coarse.size(); j++) {
                out.add(Candidate.hierarchical(List.of(coarse.get(i), coarse.get(j))));
            }
        }
        if (coarse.size() >= 2) {
            out.add(Candidate.hierarchical(List.of(coarse.get(0), coarse.get(1), "id")));
            out.add(Candidate.concat(coarse.subList(0, 2)));
        }
        if (!coarse.isEmpty()) {
            out.add(Candidate.hash(coarse.get(0), HASH_BUCKETS));
        }
        return out.stream().distinct().toList();
    }
}
