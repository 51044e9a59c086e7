package dev.partita.core.partition;

import dev.partita.core.error.ServiceException;
import java.util.Locale;

/** The {@code partitionKey.kind} of a container, with its wire names. */
public enum PartitionKind {
    /** One path, hashed (V1 or V2). */
    HASH("Hash"),
    /** Legacy: one path, binary-encoded without hashing. Kept so that old definitions still read. */
    RANGE("Range"),
    /** Hierarchical keys: 1 to 3 paths, each hashed separately with the V2 recipe. */
    MULTI_HASH("MultiHash");

    private final String wireName;

    PartitionKind(String wireName) {
        this.wireName = wireName;
    }

    /** The value of the {@code kind} property: {@code "Hash"}, {@code "Range"} or {@code "MultiHash"}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The kind for a wire name. The exact names are the norm (the SDK's own parser is case-sensitive); other casings
     * and the enum names ({@code MULTI_HASH}) are tolerated. Anything else is a 400.
     */
    public static PartitionKind fromWire(String name) {
        if (name != null) {
            for (PartitionKind k : values()) {
                if (k.wireName.equals(name)) {
                    return k;
                }
            }
            String n = name.trim().toLowerCase(Locale.ROOT).replace("_", "");
            for (PartitionKind k : values()) {
                if (k.wireName.toLowerCase(Locale.ROOT).equals(n)) {
                    return k;
                }
            }
        }
        throw ServiceException.badRequest(
                "The partition key 'kind' is not supported; use \"Hash\" or \"MultiHash\" (hierarchical keys).");
    }
}
