package dev.partita.core.stats;

import java.util.List;

/**
 * A split: physical partition {@code parent} ({@code [minInclusive, maxExclusive)}) became {@code children} at
 * {@code atMillis} (the engine's clock).
 */
public record SplitRecord(String parent, String minInclusive, String maxExclusive, List<String> children,
        long atMillis) {

    public SplitRecord {
        children = List.copyOf(children);
    }
}
