package dev.partita.core.index.vector;

import java.util.Locale;

/** The vector index types: {@code flat} is an exact scan; the others are approximate. */
public enum VectorIndexType {
    FLAT("flat"), QUANTIZED_FLAT("quantizedFlat"), DISKANN("diskANN");

    private final String policyName;

    VectorIndexType(String policyName) {
        this.policyName = policyName;
    }

    public String policyName() {
        return policyName;
    }

    public boolean approximate() {
        return this != FLAT;
    }

    /** The type a policy names (any case), or null. */
    public static VectorIndexType parse(String text) {
        if (text == null) {
            return null;
        }
        for (VectorIndexType t : values()) {
            if (t.policyName.toLowerCase(Locale.ROOT).equals(text.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        return null;
    }
}
