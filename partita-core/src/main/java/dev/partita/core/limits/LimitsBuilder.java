package dev.partita.core.limits;

import java.time.Duration;

/** Overrides single limits: {@code Limits.DEFAULTS.toBuilder().maxItemBytes(1024).build()}. */
public final class LimitsBuilder {
    private int maxItemBytes;
    private int maxIdBytes;
    private int maxResourceIdChars;
    private int maxPartitionKeyBytesV2;
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
    private long maxChangeLogBytes;
    private Duration authClockSkew;
    private Duration ttlSweepInterval;
    private int minManualRus;
    private int manualStepRus;
    private int minAutoscaleMaxRus;
    private int autoscaleStepRus;
    private int maxRusPerResource;
    private int maxSharedThroughputContainers;
    private int serverlessRusPerPartition;
    private int defaultContainerRus;
    private Duration burstAccumulation;
    private int burstMaxRus;
    private int burstEligibleBelowRus;
    private Duration throughputSplitDelay;
    private Duration maxRequestExecution;
    private int partitionKeyDeletePercent;
    private Duration scriptAcceptWindow;
    private long maxScriptAllocatedBytes;
    private int maxStoredProcedures;
    private int maxTriggers;
    private int maxUserDefinedFunctions;
    private int maxUdfsPerQuery;
    private int maxComputedProperties;

    LimitsBuilder(Limits l) {
        maxItemBytes = l.maxItemBytes();
        maxIdBytes = l.maxIdBytes();
        maxResourceIdChars = l.maxResourceIdChars();
        maxPartitionKeyBytesV2 = l.maxPartitionKeyBytesV2();
        maxHierarchicalKeyLevels = l.maxHierarchicalKeyLevels();
        maxLogicalPartitionBytes = l.maxLogicalPartitionBytes();
        maxPhysicalPartitionBytes = l.maxPhysicalPartitionBytes();
        maxPhysicalPartitionRus = l.maxPhysicalPartitionRus();
        manualRusPerInitialPartition = l.manualRusPerInitialPartition();
        autoscaleRusPerInitialPartition = l.autoscaleRusPerInitialPartition();
        maxBatchOperations = l.maxBatchOperations();
        maxBatchBytes = l.maxBatchBytes();
        maxPatchOperations = l.maxPatchOperations();
        maxRequestBytes = l.maxRequestBytes();
        maxResponseBytes = l.maxResponseBytes();
        maxNestingDepth = l.maxNestingDepth();
        maxTtlSeconds = l.maxTtlSeconds();
        changeLogRetention = l.changeLogRetention();
        maxChangeLogBytes = l.maxChangeLogBytes();
        authClockSkew = l.authClockSkew();
        ttlSweepInterval = l.ttlSweepInterval();
        minManualRus = l.minManualRus();
        manualStepRus = l.manualStepRus();
        minAutoscaleMaxRus = l.minAutoscaleMaxRus();
        autoscaleStepRus = l.autoscaleStepRus();
        maxRusPerResource = l.maxRusPerResource();
        maxSharedThroughputContainers = l.maxSharedThroughputContainers();
        serverlessRusPerPartition = l.serverlessRusPerPartition();
        defaultContainerRus = l.defaultContainerRus();
        burstAccumulation = l.burstAccumulation();
        burstMaxRus = l.burstMaxRus();
        burstEligibleBelowRus = l.burstEligibleBelowRus();
        throughputSplitDelay = l.throughputSplitDelay();
        maxRequestExecution = l.maxRequestExecution();
        partitionKeyDeletePercent = l.partitionKeyDeletePercent();
        scriptAcceptWindow = l.scriptAcceptWindow();
        maxScriptAllocatedBytes = l.maxScriptAllocatedBytes();
        maxStoredProcedures = l.maxStoredProcedures();
        maxTriggers = l.maxTriggers();
        maxUserDefinedFunctions = l.maxUserDefinedFunctions();
        maxUdfsPerQuery = l.maxUdfsPerQuery();
        maxComputedProperties = l.maxComputedProperties();
    }

    public LimitsBuilder maxItemBytes(int v) {
        maxItemBytes = v;
        return this;
    }

    public LimitsBuilder maxIdBytes(int v) {
        maxIdBytes = v;
        return this;
    }

    public LimitsBuilder maxResourceIdChars(int v) {
        maxResourceIdChars = v;
        return this;
    }

    public LimitsBuilder maxPartitionKeyBytesV2(int v) {
        maxPartitionKeyBytesV2 = v;
        return this;
    }

    public LimitsBuilder maxHierarchicalKeyLevels(int v) {
        maxHierarchicalKeyLevels = v;
        return this;
    }

    public LimitsBuilder maxLogicalPartitionBytes(long v) {
        maxLogicalPartitionBytes = v;
        return this;
    }

    public LimitsBuilder maxPhysicalPartitionBytes(long v) {
        maxPhysicalPartitionBytes = v;
        return this;
    }

    public LimitsBuilder maxPhysicalPartitionRus(int v) {
        maxPhysicalPartitionRus = v;
        return this;
    }

    public LimitsBuilder manualRusPerInitialPartition(int v) {
        manualRusPerInitialPartition = v;
        return this;
    }

    public LimitsBuilder autoscaleRusPerInitialPartition(int v) {
        autoscaleRusPerInitialPartition = v;
        return this;
    }

    public LimitsBuilder maxBatchOperations(int v) {
        maxBatchOperations = v;
        return this;
    }

    public LimitsBuilder maxBatchBytes(int v) {
        maxBatchBytes = v;
        return this;
    }

    public LimitsBuilder maxPatchOperations(int v) {
        maxPatchOperations = v;
        return this;
    }

    public LimitsBuilder maxRequestBytes(int v) {
        maxRequestBytes = v;
        return this;
    }

    public LimitsBuilder maxResponseBytes(int v) {
        maxResponseBytes = v;
        return this;
    }

    public LimitsBuilder maxNestingDepth(int v) {
        maxNestingDepth = v;
        return this;
    }

    public LimitsBuilder maxTtlSeconds(long v) {
        maxTtlSeconds = v;
        return this;
    }

    public LimitsBuilder changeLogRetention(Duration v) {
        changeLogRetention = v;
        return this;
    }

    public LimitsBuilder maxChangeLogBytes(long v) {
        maxChangeLogBytes = v;
        return this;
    }

    public LimitsBuilder authClockSkew(Duration v) {
        authClockSkew = v;
        return this;
    }

    public LimitsBuilder ttlSweepInterval(Duration v) {
        ttlSweepInterval = v;
        return this;
    }

    public LimitsBuilder minManualRus(int v) {
        minManualRus = v;
        return this;
    }

    public LimitsBuilder manualStepRus(int v) {
        manualStepRus = v;
        return this;
    }

    public LimitsBuilder minAutoscaleMaxRus(int v) {
        minAutoscaleMaxRus = v;
        return this;
    }

    public LimitsBuilder autoscaleStepRus(int v) {
        autoscaleStepRus = v;
        return this;
    }

    public LimitsBuilder maxRusPerResource(int v) {
        maxRusPerResource = v;
        return this;
    }

    public LimitsBuilder maxSharedThroughputContainers(int v) {
        maxSharedThroughputContainers = v;
        return this;
    }

    public LimitsBuilder serverlessRusPerPartition(int v) {
        serverlessRusPerPartition = v;
        return this;
    }

    public LimitsBuilder defaultContainerRus(int v) {
        defaultContainerRus = v;
        return this;
    }

    public LimitsBuilder burstAccumulation(Duration v) {
        burstAccumulation = v;
        return this;
    }

    public LimitsBuilder burstMaxRus(int v) {
        burstMaxRus = v;
        return this;
    }

    public LimitsBuilder burstEligibleBelowRus(int v) {
        burstEligibleBelowRus = v;
        return this;
    }

    public LimitsBuilder throughputSplitDelay(Duration v) {
        throughputSplitDelay = v;
        return this;
    }

    public LimitsBuilder maxRequestExecution(Duration v) {
        maxRequestExecution = v;
        return this;
    }

    public LimitsBuilder partitionKeyDeletePercent(int v) {
        partitionKeyDeletePercent = v;
        return this;
    }

    public LimitsBuilder scriptAcceptWindow(Duration v) {
        scriptAcceptWindow = v;
        return this;
    }

    public LimitsBuilder maxScriptAllocatedBytes(long v) {
        maxScriptAllocatedBytes = v;
        return this;
    }

    public LimitsBuilder maxStoredProcedures(int v) {
        maxStoredProcedures = v;
        return this;
    }

    public LimitsBuilder maxTriggers(int v) {
        maxTriggers = v;
        return this;
    }

    public LimitsBuilder maxUserDefinedFunctions(int v) {
        maxUserDefinedFunctions = v;
        return this;
    }

    public LimitsBuilder maxUdfsPerQuery(int v) {
        maxUdfsPerQuery = v;
        return this;
    }

    public LimitsBuilder maxComputedProperties(int v) {
        maxComputedProperties = v;
        return this;
    }

    public Limits build() {
        return new Limits(maxItemBytes, maxIdBytes, maxResourceIdChars, maxPartitionKeyBytesV2, maxHierarchicalKeyLevels, maxLogicalPartitionBytes, maxPhysicalPartitionBytes, maxPhysicalPartitionRus, manualRusPerInitialPartition, autoscaleRusPerInitialPartition, maxBatchOperations, maxBatchBytes, maxPatchOperations, maxRequestBytes, maxResponseBytes, maxNestingDepth, maxTtlSeconds, changeLogRetention, maxChangeLogBytes, authClockSkew, ttlSweepInterval, minManualRus, manualStepRus, minAutoscaleMaxRus, autoscaleStepRus, maxRusPerResource, maxSharedThroughputContainers, serverlessRusPerPartition, defaultContainerRus, burstAccumulation, burstMaxRus, burstEligibleBelowRus, throughputSplitDelay, maxRequestExecution, partitionKeyDeletePercent, scriptAcceptWindow, maxScriptAllocatedBytes, maxStoredProcedures, maxTriggers, maxUserDefinedFunctions, maxUdfsPerQuery, maxComputedProperties);
    }
}
