package dev.partita.core.limits;

import java.time.Duration;

/**
 * Every limit of the service in one place, with the documented values as defaults ({@link #DEFAULTS}). Tests and
 * scaled simulations override single values with the {@code with...} methods, e.g. a 1 MB "physical partition" to
 * reach a storage split cheaply.
 *
 * @param maxItemBytes                 largest item, UTF-8 JSON (2 MB); larger writes get 413
 * @param maxIdBytes                   largest item id in UTF-8 bytes (1,023)
 * @param maxResourceIdChars           largest database/container/user id (255 chars)
 * @param maxPartitionKeyBytesV2       largest partition key value (2,048 bytes), whatever the hash version: a hash V1
 *                                     container takes it too and hashes its first 101 bytes (longer keys sharing
 *                                     them collide, as in the service)
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
 * @param maxChangeLogBytes            bytes of superseded versions and deletes one container's change log keeps
 *                                     within that window (256 MB); the oldest go first. Partita's own (the service
 *                                     bounds them by the window alone, on disk), so a sustained write load cannot
 *                                     grow the memory store without end; each item's latest version always stays
 * @param authClockSkew                how far {@code x-ms-date} may be from the server clock (15 min)
 * @param ttlSweepInterval             how often expired items are physically removed
 * @param minManualRus                 smallest manual throughput of a container or shared database (400 RU/s)
 * @param manualStepRus                step manual throughput moves in (100 RU/s)
 * @param minAutoscaleMaxRus           smallest autoscale maximum (1,000 RU/s)
 * @param autoscaleStepRus             step the autoscale maximum moves in (1,000 RU/s)
 * @param maxRusPerResource            largest throughput of one container or database (1,000,000 RU/s)
 * @param maxSharedThroughputContainers containers sharing one database's throughput (25)
 * @param serverlessRusPerPartition    what one physical partition of a serverless container serves (5,000 RU/s)
 * @param defaultContainerRus          throughput a provisioned-account container created without any gets (400 RU/s)
 * @param burstAccumulation            how much idle time a partition's burst capacity holds (300 s of its RU/s)
 * @param burstMaxRus                  the rate burst capacity lets a partition run at (3,000 RU/s)
 * @param burstEligibleBelowRus        only partitions provisioned below this get burst capacity (3,000 RU/s)
 * @param throughputSplitDelay         how long after a throughput increase its partition splits happen (the service
 *                                     takes 4-6 h; the emulator splits at once by default)
 * @param maxRequestExecution          how long one operation may run: a query page, a change-feed page, a script
 *                                     (5 s, the service's "maximum execution time for a single operation" quota);
 *                                     a query page that reaches it returns what it has with a continuation; a script is
 *                                     stopped (408) and nothing it did is applied
 * @param partitionKeyDeletePercent    the share of a physical partition's RU/s the background removal of a deleted
 *                                     partition key's items may spend (10%)
 * @param scriptAcceptWindow           how long a script's collection operations are accepted; later ones return
 *                                     false so the script can hand back a continuation (the service does not publish
 *                                     its threshold: 4 s leaves a second of the 5 s budget to finish)
 * @param maxScriptAllocatedBytes      memory one script execution may allocate before it is stopped (the service
 *                                     publishes no figure; 256 MB keeps a runaway script from exhausting the heap)
 * @param maxStoredProcedures          stored procedures per container (100; the service's x-ms-resource-quota
 *                                     "storedProcedures=100")
 * @param maxTriggers                  triggers per container (25; x-ms-resource-quota "triggers=25")
 * @param maxUserDefinedFunctions      user-defined functions per container (25; x-ms-resource-quota "functions=25")
 * @param maxUdfsPerQuery              distinct user-defined functions one query may call (10; concepts-limits
 *                                     "maximum number of UDFs per query")
 * @param maxComputedProperties        computed properties per container (20; computed-properties documentation)
 */
public record Limits(
        int maxItemBytes,
        int maxIdBytes,
        int maxResourceIdChars,
        int maxPartitionKeyBytesV2,
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
        long maxChangeLogBytes,
        Duration authClockSkew,
        Duration ttlSweepInterval,
        int minManualRus,
        int manualStepRus,
        int minAutoscaleMaxRus,
        int autoscaleStepRus,
        int maxRusPerResource,
        int maxSharedThroughputContainers,
        int serverlessRusPerPartition,
        int defaultContainerRus,
        Duration burstAccumulation,
        int burstMaxRus,
        int burstEligibleBelowRus,
        Duration throughputSplitDelay,
        Duration maxRequestExecution,
        int partitionKeyDeletePercent,
        Duration scriptAcceptWindow,
        long maxScriptAllocatedBytes,
        int maxStoredProcedures,
        int maxTriggers,
        int maxUserDefinedFunctions,
        int maxUdfsPerQuery,
        int maxComputedProperties) {

    private static final int MB = 1024 * 1024;
    private static final long GB = 1024L * MB;

    public static final Limits DEFAULTS = new Limits(
            2 * MB, 1023, 255, 2048, 3,
            20 * GB, 50 * GB, 10_000, 6_000, 10_000,
            100, 2 * MB, 10, 2 * MB, 4 * MB, 128, Integer.MAX_VALUE,
            Duration.ofDays(7), 256L * MB, Duration.ofMinutes(15), Duration.ofSeconds(1),
            400, 100, 1000, 1000, 1_000_000, 25, 5_000, 400,
            Duration.ofSeconds(300), 3_000, 3_000, Duration.ZERO, Duration.ofSeconds(5), 10,
            Duration.ofSeconds(4), 256L * MB, 100, 25, 25, 10, 20);

    public LimitsBuilder toBuilder() {
        return new LimitsBuilder(this);
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

    /**
     * The partitions needed to serve {@code rus} RU/s when each can serve {@link #maxPhysicalPartitionRus} (the split
     * rule of capacity.md §2.6: raising throughput beyond partitions x 10,000 RU/s splits until this many exist).
     */
    public int partitionsForThroughput(int rus) {
        return Math.max(1, ceilDiv(rus, maxPhysicalPartitionRus));
    }

    /**
     * These limits with the storage capacities multiplied by {@code factor} (e.g. 1/1000), for scaled simulations:
     * the logical partition (20 GB) and the physical partition (50 GB), the two limits a test cannot reach with real
     * data. With 1/1000 a 50 MB partition splits and a 20 MB logical partition fills (403/1014). Throughput limits stay
     * (a 401st RU in a second is easy to ask for; raising an offer past 10,000 RU/s splits at once), as do the protocol
     * limits the SDK and the user's code see; set any of them one by one with {@link #with}. Every value stays >= 1.
     */
    public Limits scaled(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("The limits scale must be a positive number; got " + factor + ".");
        }
        return toBuilder()
                .maxLogicalPartitionBytes(scale(maxLogicalPartitionBytes, factor))
                .maxPhysicalPartitionBytes(scale(maxPhysicalPartitionBytes, factor))
                .build();
    }

    private static long scale(long v, double factor) {
        return Math.max(1, Math.round(v * factor));
    }

    /**
     * These limits with one value replaced by name (a record component, e.g. {@code maxItemBytes}); the value is a
     * number, or for durations an ISO-8601 duration ({@code PT5M}) or a number of seconds. For command-line flags.
     */
    public Limits with(String name, String value) {
        java.lang.reflect.RecordComponent[] components = Limits.class.getRecordComponents();
        Object[] args = new Object[components.length];
        boolean found = false;
        try {
            for (int i = 0; i < components.length; i++) {
                java.lang.reflect.RecordComponent rc = components[i];
                args[i] = rc.getAccessor().invoke(this);
                if (rc.getName().equals(name)) {
                    args[i] = parse(rc.getType(), name, value.trim());
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("There is no limit named '" + name + "'. Limits: "
                        + java.util.Arrays.stream(components).map(java.lang.reflect.RecordComponent::getName)
                                .collect(java.util.stream.Collectors.joining(", ")) + ".");
            }
            Class<?>[] types = java.util.Arrays.stream(components).map(java.lang.reflect.RecordComponent::getType)
                    .toArray(Class<?>[]::new);
            return Limits.class.getDeclaredConstructor(types).newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Could not set limit " + name, e);
        }
    }

    private static Object parse(Class<?> type, String name, String value) {
        try {
            if (type == int.class) {
                return Integer.parseInt(value.replace("_", ""));
            }
            if (type == long.class) {
                return Long.parseLong(value.replace("_", ""));
            }
            if (type == Duration.class) {
                return value.startsWith("P") || value.startsWith("p") ? Duration.parse(value)
                        : Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("The limit '" + name + "' needs a " + type.getSimpleName()
                    + " value; got '" + value + "'.");
        }
        throw new IllegalArgumentException("The limit '" + name + "' cannot be set from text.");
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
