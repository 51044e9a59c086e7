package dev.partita.cli.migrate;

import java.util.List;
import java.util.Map;

/**
 * What a comparison of the two containers found. Differences are item identities (see {@link ItemKeys#identity});
 * a report shows only their ids, never item values.
 *
 * @param missing   in the source, not in the target
 * @param extra     in the target, not in the source (deleted in the source: the latest-version feed has no deletes)
 * @param different in both, with different content
 * @param duplicated in the target more than once: a stale copy under an old target key (the source changed a
 *                   target-key property after the copy)
 * @param counts    per value of the {@code --verify-by} property (its JSON text; "(missing)" when absent): the
 *                  source and target counts; empty without {@code --verify-by}
 */
record Verification(long sourceItems, long targetItems, List<String> missing, List<String> extra,
        List<String> different, List<String> duplicated, String property, Map<String, long[]> counts) {

    boolean countsMatch() {
        return counts.values().stream().allMatch(c -> c[0] == c[1]);
    }

    boolean clean() {
        return missing.isEmpty() && extra.isEmpty() && different.isEmpty() && duplicated.isEmpty() && countsMatch()
                && sourceItems == targetItems;
    }

    int differences() {
        return missing.size() + extra.size() + different.size() + duplicated.size();
    }
}
