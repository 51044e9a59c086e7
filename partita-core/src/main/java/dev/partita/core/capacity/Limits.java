package dev.partita.core.capacity;

import java.time.Duration;

/**
 * Every limit of the service in one place, with the documented values as defaults ({@link #DEFAULTS}). Tests and
 * scaled simulations override single values with the {@code with...} methods, e.g. a 1 MB "physical partition" to
 * reach a storage split cheaply.
 *
 * @param maxItemBytes                 largest item, UTF-8 JSON (2 MB); larger writes get 413
 * @param maxIdBytes                   largest item id in UTF-8 bytes (1,023)
 * @param maxResourceIdChars           largest database/container/user id (255 chars)
 * @param maxPartitionKeyBytesV2       largest partition key value with hash V2 / MultiHash (2,048 bytes)
 * @param maxPartitionKeyBytesV1       largest partition key value with hash V1 (101 bytes)
 * @param maxHierarchicalKeyLevels     paths of a MultiHash key (3)
 * @param maxLogicalPartitionBytes     storage of one logical partition (20 GB); beyond it writes get 403/1014
 * @param maxPhysicalPartitionBytes    storage of one physical partition before it splits (50 GB)
 * @param maxPhysicalPartitionRus      throughput of one physical partition (10,000 RU/s)
 * @param manualRusPerInitialPartition manual throughput per partition at creation (6,000 RU/s)
 * @param autoscaleRusPerInitialPartition autoscale/shared max throughput per partition at creation (10,000 RU/s)
 * @param maxBatchOperations           operations in one transactional batch (100)
 * @param maxBatchBytes                payload of one transactional batch (2 MB)
 * @param maxPatchOperations           operations in one patch (10)
 * @param maxRequestBytes              request body (2 MB)
 * @param maxResponseBytes             response page (4 MB)
 * @param maxNestingDepth              JSON nesting depth of an item (128)
 * @param maxTtlSeconds                largest TTL (2,147,483,647 s)
 * @param changeLogRetention           how long the change log keeps versions for the all-versions feed
 * @param authClockSkew                how far {@code x-ms-date} may be from the server clock (15 min)
 * @param ttlSweepInterval             how often expired items are physically removed
 */
public record Limits(
        int maxItemBytes,
        int maxIdBytes,
        int maxResourceIdChars,
        int maxPartitionKeyBytesV2,
        int maxPartitionKeyBytesV1,
        int maxHierarchicalKeyLevels,
        long maxLogicalPartitionBytes,
        long maxPhysicalPartitionBytes,
        int maxPhysicalPartitionRus,
        int manualRusPerInitialPartition,
        int autoscaleRusPerInitialPartition,
        int maxBatchOperations,
        int maxBatchBytes,
        int maxPatchOperations,
        int maxRequestBytes,
        int maxResponseBytes,
        int maxNestingDepth,
        long maxTtlSeconds,
        Duration changeLogRetention,
        Duration authClockSkew,
        Duration ttlSweepInterval) {

    private static final int MB = 1024 * 1024;
    private static final long GB = 1024L * MB;

    public static final Limits DEFAULTS = new Limits(
            2 * MB, 1023, 255, 2048, 101, 3,
            20 * GB, 50 * GB, 10_000, 6_000, 10_000,
            100, 2 * MB, 10, 2 * MB, 4 * MB, 128, Integer.MAX_VALUE,
            Duration.ofDays(7), Duration.ofMinutes(15), Duration.ofSeconds(1));

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Overrides single limits: {@code Limits.DEFAULTS.toBuilder().maxItemBytes(1024).build()}. */
    public static final class Builder {
        private int maxItemBytes;
        private int maxIdBytes;
        private int maxResourceIdChars;
        private int maxPartitionKeyBytesV2;
        private int maxPartitionKeyBytesV1;
        private int maxHierarchicalKeyLevels;
        private long maxLogicalPartitionBytes;
        private long maxPhysicalPartitionBytes;
        private int maxPhysicalPartitionRus;
        private int manualRusPerInitialPartition;
        private int autoscaleRusPerInitialPartition;
        private int maxBatchOperations;
        private int maxBatchBytes;
        private int maxPatchOperations;
        private int maxRequestBytes;
        private int maxResponseBytes;
        private int maxNestingDepth;
        private long maxTtlSeconds;
        private Duration changeLogRetention;
        private Duration authClockSkew;
        private Duration ttlSweepInterval;

        private Builder(Limits l) {
            maxItemBytes = l.maxItemBytes;
            maxIdBytes = l.maxIdBytes;
            maxResourceIdChars = l.maxResourceIdChars;
            maxPartitionKeyBytesV2 = l.maxPartitionKeyBytesV2;
            maxPartitionKeyBytesV1 = l.maxPartitionKeyBytesV1;
            maxHierarchicalKeyLevels = l.maxHierarchicalKeyLevels;
            maxLogicalPartitionBytes = l.maxLogicalPartitionBytes;
            maxPhysicalPartitionBytes = l.maxPhysicalPartitionBytes;
            maxPhysicalPartitionRus = l.maxPhysicalPartitionRus;
            manualRusPerInitialPartition = l.manualRusPerInitialPartition;
            autoscaleRusPerInitialPartition = l.autoscaleRusPerInitialPartition;
            maxBatchOperations = l.maxBatchOperations;
            maxBatchBytes = l.maxBatchBytes;
            maxPatchOperations = l.maxPatchOperations;
            maxRequestBytes = l.maxRequestBytes;
            maxResponseBytes = l.maxResponseBytes;
            maxNestingDepth = l.maxNestingDepth;
            maxTtlSeconds = l.maxTtlSeconds;
            changeLogRetention = l.changeLogRetention;
            authClockSkew = l.authClockSkew;
            ttlSweepInterval = l.ttlSweepInterval;
        }

        public Builder maxItemBytes(int v) {
            maxItemBytes = v;
            return this;
        }

        public Builder maxIdBytes(int v) {
            maxIdBytes = v;
            return this;
        }

        public Builder maxResourceIdChars(int v) {
            maxResourceIdChars = v;
            return this;
        }

        public Builder maxPartitionKeyBytesV2(int v) {
            maxPartitionKeyBytesV2 = v;
            return this;
        }

        public Builder maxPartitionKeyBytesV1(int v) {
            maxPartitionKeyBytesV1 = v;
            return this;
        }

        public Builder maxHierarchicalKeyLevels(int v) {
            maxHierarchicalKeyLevels = v;
            return this;
        }

        public Builder maxLogicalPartitionBytes(long v) {
            maxLogicalPartitionBytes = v;
            return this;
        }

        public Builder maxPhysicalPartitionBytes(long v) {
            maxPhysicalPartitionBytes = v;
            return this;
        }

        public Builder maxPhysicalPartitionRus(int v) {
            maxPhysicalPartitionRus = v;
            return this;
        }

        public Builder manualRusPerInitialPartition(int v) {
            manualRusPerInitialPartition = v;
            return this;
        }

        public Builder autoscaleRusPerInitialPartition(int v) {
            autoscaleRusPerInitialPartition = v;
            return this;
        }

        public Builder maxBatchOperations(int v) {
            maxBatchOperations = v;
            return this;
        }

        public Builder maxBatchBytes(int v) {
            maxBatchBytes = v;
            return this;
        }

        public Builder maxPatchOperations(int v) {
            maxPatchOperations = v;
            return this;
        }

        public Builder maxRequestBytes(int v) {
            maxRequestBytes = v;
            return this;
        }

        public Builder maxResponseBytes(int v) {
            maxResponseBytes = v;
            return this;
        }

        public Builder maxNestingDepth(int v) {
            maxNestingDepth = v;
            return this;
        }

        public Builder maxTtlSeconds(long v) {
            maxTtlSeconds = v;
            return this;
        }

        public Builder changeLogRetention(Duration v) {
            changeLogRetention = v;
            return this;
        }

        public Builder authClockSkew(Duration v) {
            authClockSkew = v;
            return this;
        }

        public Builder ttlSweepInterval(Duration v) {
            ttlSweepInterval = v;
            return this;
        }

        public Limits build() {
            return new Limits(maxItemBytes, maxIdBytes, maxResourceIdChars, maxPartitionKeyBytesV2, maxPartitionKeyBytesV1, maxHierarchicalKeyLevels, maxLogicalPartitionBytes, maxPhysicalPartitionBytes, maxPhysicalPartitionRus, manualRusPerInitialPartition, autoscaleRusPerInitialPartition, maxBatchOperations, maxBatchBytes, maxPatchOperations, maxRequestBytes, maxResponseBytes, maxNestingDepth, maxTtlSeconds, changeLogRetention, authClockSkew, ttlSweepInterval);
        }
    }

    /** Initial physical partitions for a container with the given throughput (capacity.md §2.6). */
    public int initialPartitions(int manualRus, int autoscaleMaxRus) {
        if (autoscaleMaxRus > 0) {
            return Math.max(1, ceilDiv(autoscaleMaxRus, autoscaleRusPerInitialPartition));
        }
        if (manualRus > 0) {
            return Math.max(1, ceilDiv(manualRus, manualRusPerInitialPartition));
        }
        return 1;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
