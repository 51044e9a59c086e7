package dev.partita.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.json.Json;
import dev.partita.core.store.StoreReader;
import dev.partita.core.store.StoreKeys;

/**
 * Whether a container's index entries are complete for its current policy, so that a lookup may stand in for a scan.
 * A metadata record holds the policy the entries were last built for: written with the container (an empty container
 * is fully indexed) and by a rebuild when it finishes. While a rebuild runs, after a crash in the middle of one, or
 * for containers stored before indexes existed, the record does not match and queries scan, which is always correct.
 */
public final class IndexState {
    private IndexState() {
    }

    /** The metadata key of a container's record. */
    public static byte[] key(int containerId) {
        return StoreKeys.meta("index/" + containerId);
    }

    /** The record's value: the policy the entries were built for. */
    public static byte[] value(IndexingPolicy policy) {
        return Json.bytes(sourceOf(policy));
    }

    /**
     * True when the entries {@code reader} sees were built for exactly this policy. Read from the same snapshot as
     * the lookup, so a rebuild committed in between cannot mix two policies' entries into one page.
     */
    public static boolean isReady(StoreReader reader, int containerId, IndexingPolicy policy) {
        byte[] built = reader.get(key(containerId));
        return built != null && Json.parse(built, "index record").equals(sourceOf(policy));
    }

    private static JsonNode sourceOf(IndexingPolicy policy) {
        return policy.source() == null ? Json.NODES.nullNode() : policy.source();
    }
}
