package dev.partita.core.partition;

import java.util.Objects;

/**
 * A half-open interval of effective partition keys, {@code [minInclusive, maxExclusive)}, compared as plain strings
 * (EPKs are upper-case hex). The whole key space is {@code ["", "FF")}.
 */
public record EpkRange(String minInclusive, String maxExclusive) {

    public EpkRange {
        Objects.requireNonNull(minInclusive, "minInclusive");
        Objects.requireNonNull(maxExclusive, "maxExclusive");
        if (minInclusive.compareTo(maxExclusive) > 0) {
            throw new IllegalArgumentException("minInclusive must not be greater than maxExclusive");
        }
    }

    private static final EpkRange FULL = new EpkRange(EffectivePartitionKey.MIN, EffectivePartitionKey.MAX);

    /** {@code ["", "FF")}: every key. */
    public static EpkRange full() {
        return FULL;
    }

    /**
     * The keys that start with a hierarchical-key prefix's EPK: {@code [p, p + "FF")}, as the SDK targets them
     * ({@code PartitionKeyInternalHelper.getEPKRangeForPrefixPartitionKey}).
     */
    public static EpkRange forPrefix(String prefixEpk) {
        return new EpkRange(prefixEpk, prefixEpk + EffectivePartitionKey.MAX);
    }

    public boolean contains(String epk) {
        return minInclusive.compareTo(epk) <= 0 && epk.compareTo(maxExclusive) < 0;
    }

    /** True if the two ranges share at least one key. */
    public boolean overlaps(EpkRange other) {
        return minInclusive.compareTo(other.maxExclusive) < 0 && other.minInclusive.compareTo(maxExclusive) < 0;
    }

    public boolean isEmpty() {
        return minInclusive.equals(maxExclusive);
    }
}
