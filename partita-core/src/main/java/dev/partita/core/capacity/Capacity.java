package dev.partita.core.capacity;

import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import dev.partita.core.request.Priority;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.partition.PhysicalPartition;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The account's capacity: the {@link CostModel}, the throughput each physical partition gets, and its
 * {@link PartitionBudget}. The engine's container handle asks {@link #admit} after routing a request to its physical
 * partition and before the store (step 5 of the life of a request), and {@link #charge}s the real price afterwards.
 *
 * <p>Request charges are always computed and budgets always kept (so metrics are right); throttling (429) happens
 * only where enforcement is on: {@link #enforce(boolean)} for the account (off by default), or per container.
 *
 * <p>Per-partition throughput (capacity.md §2): a container with its own throughput gives each of its P partitions
 * RU/s / P (autoscale: its maximum / P, the most it may scale to within the window); a container in a shared database
 * draws on the database's partitions (the database's RU/s split over the partitions its throughput calls for, a
 * container's k-th range on the database's partition k mod P); serverless gives every partition 5,000 RU/s; a
 * container created without throughput in a provisioned account gets the service's default 400 RU/s. No partition
 * serves more than {@link Limits#maxPhysicalPartitionRus()} (until a throughput increase has split it).
 */
public final class Capacity {
    /** The service's 429 message (capacity.md §2.11). */
    static final String THROTTLED = "Request rate is large. More Request Units may be needed, so no changes were made."
            + " Please retry this request later.";

    private final Clock clock;
    private final Limits limits;
    private final CostModel costs;
    private final Function<String, DatabaseInfo> databaseByRid;
    private final Map<Object, PartitionBudget> budgets = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> enforcedContainers = new ConcurrentHashMap<>();
    private volatile boolean enforced;
    private volatile boolean burstEnabled;
    private volatile boolean serverless;
    private volatile Consistency defaultConsistency = Consistency.SESSION;
    private final java.util.concurrent.atomic.AtomicLong throttled = new java.util.concurrent.atomic.AtomicLong();
    private final PartitionStats stats = new PartitionStats();

    /** @param databaseByRid the catalog's lookup of a database by {@code _rid} (for shared throughput) */
    public Capacity(Clock clock, Limits limits, CostModel costs, Function<String, DatabaseInfo> databaseByRid) {
        this.clock = Objects.requireNonNull(clock);
        this.limits = Objects.requireNonNull(limits);
        this.costs = Objects.requireNonNull(costs);
        this.databaseByRid = Objects.requireNonNull(databaseByRid);
    }

    public CostModel costs() {
        return costs;
    }

    /** Per-partition statistics: RU and 429s per second, top logical partitions, splits (the explorer, metrics). */
    public PartitionStats stats() {
        return stats;
    }

    // ---- settings

    /** Turns 429s on or off for every container (containers set on their own keep their setting). */
    public Capacity enforce(boolean on) {
        enforced = on;
        return this;
    }

    /** Turns 429s on or off for one container, whatever the account setting. */
    public Capacity enforce(ContainerInfo container, boolean on) {
        enforcedContainers.put(container.containerId(), on);
        return this;
    }

    public boolean isEnforced(ContainerInfo container) {
        Boolean own = enforcedContainers.get(container.containerId());
        return own != null ? own : enforced;
    }

    /** Burst capacity (capacity.md §2.8) is an account feature the user enables; off by default, as in the service. */
    public Capacity burstCapacity(boolean on) {
        burstEnabled = on;
        return this;
    }

    public boolean burstCapacityEnabled() {
        return burstEnabled;
    }

    /**
     * A serverless account: no provisioned throughput anywhere (asking for it is a 400), each partition serves
     * {@link Limits#serverlessRusPerPartition()}, no burst and no priority. Set before creating resources.
     */
    public Capacity serverless(boolean on) {
        serverless = on;
        return this;
    }

    public boolean isServerless() {
        return serverless;
    }

    /**
     * The account's default consistency, Session unless set: what a request naming no level reads at, and the
     * strongest one a request may ask for ({@link Consistency#under}); reads at Strong or Bounded Staleness are
     * priced as quorum reads.
     */
    public Capacity defaultConsistency(Consistency level) {
        if (level == null || level == Consistency.ACCOUNT_DEFAULT) {
            throw new IllegalArgumentException("An account's default consistency is a level: " + level);
        }
        defaultConsistency = level;
        return this;
    }

    public Consistency defaultConsistency() {
        return defaultConsistency;
    }

    // ---- admission and charging

    /**
     * Admits a request to physical partition {@code rangeId} of {@code container}, or throws 429 with sub-status 3200
     * and {@code x-ms-retry-after-ms} when enforcement is on and the partition's budget is spent. Nothing has been
     * done when it throws.
     */
    public void admit(ContainerInfo container, String rangeId, Priority priority) {
        if (!isEnforced(container)) {
            return;
        }
        long now = clock.millis();
        PartitionBudget.Decision d = budget(container, rangeId).admit(now, serverless ? Priority.HIGH : priority);
        if (!d.admitted()) {
            throttled.incrementAndGet();
            meter(container, rangeId).throttled(now);
            throw new ServiceException(429, SubStatus.USER_REQUEST_RATE_TOO_LARGE, THROTTLED,
                    Math.max(1, d.retryAfterMillis()));
        }
    }

    /**
     * Whether a request already admitted to partition {@code rangeId} may go on to cost {@code ru} in all (a
     * script's work grows as it runs): always when enforcement is off, else while the partition's budget covers it.
     */
    public boolean affords(ContainerInfo container, String rangeId, double ru) {
        return !isEnforced(container) || ru <= Math.max(0, budget(container, rangeId).remaining(clock.millis()));
    }

    /**
     * The 429 of a request whose work outgrew the partition's budget after it was admitted (a script): it applies
     * nothing, and may retry when the next window refills the budget.
     */
    public ServiceException outOfBudget() {
        throttled.incrementAndGet();
        long now = clock.millis();
        return new ServiceException(429, SubStatus.USER_REQUEST_RATE_TOO_LARGE, THROTTLED, 1000 - now % 1000);
    }

    /** How many requests were throttled (429) since the engine started: a metric, and what tests look at. */
    public long throttledRequests() {
        return throttled.get();
    }

    /** Charges {@code ru} to the partition's budget (whether or not enforcement is on) and returns it. */
    public double charge(ContainerInfo container, String rangeId, double ru) {
        return charge(container, rangeId, null, ru);
    }

    /** As {@link #charge(ContainerInfo, String, double)}, also counting it to the logical partition {@code at}. */
    public double charge(ContainerInfo container, KeyRoute at, double ru) {
        return charge(container, at.range().id(), at, ru);
    }

    private double charge(ContainerInfo container, String rangeId, KeyRoute at, double ru) {
        if (ru > 0) {
            long now = clock.millis();
            double rate = budget(container, rangeId).charge(now, ru);
            meter(container, rangeId).charged(now, ru, rate, at == null ? null : at.epk(),
                    at == null ? null : at.key());
        }
        return ru;
    }

    /** The meter of the partition the budget of {@code rangeId} belongs to (see {@link #indexOf}). */
    private PartitionMeter meter(ContainerInfo container, String rangeId) {
        List<PhysicalPartition> parts = container.partitions().partitions();
        return stats.meter(container.containerId(), parts.get(indexOf(parts, rangeId)).id());
    }

    /**
     * Starts the budgets of a new container's partitions now, so the time it stands idle before its first request
     * banks burst capacity as any other idle time does.
     */
    public void started(ContainerInfo container) {
        long now = clock.millis();
        for (PhysicalPartition p : container.partitions().partitions()) {
            budget(container, p.id()).remaining(now);
        }
    }

    /**
     * Starts the container's budgets afresh, as if it were created now: what it spent so far is forgotten. For
     * simulations that load their data before their clock starts (the advisor's replay).
     */
    public void restart(ContainerInfo container) {
        for (PhysicalPartition p : container.partitions().partitions()) {
            budgets.remove(new RangeKey(container.containerId(), p.id()));
        }
        started(container);
    }

    /** The budget of the partition, configured with its current throughput. For metrics and tests. */
    public PartitionBudget budget(ContainerInfo container, String rangeId) {
        List<PhysicalPartition> parts = container.partitions().partitions();
        int index = indexOf(parts, rangeId);
        Throughput own = container.throughput();
        Object key;
        double total;
        int partitions;
        if (serverless) {
            key = new RangeKey(container.containerId(), parts.get(index).id());
            partitions = 1;
            total = limits.serverlessRusPerPartition();
        } else if (own.isProvisioned()) {
            key = new RangeKey(container.containerId(), parts.get(index).id());
            partitions = parts.size();
            total = maxRus(own);
        } else {
            DatabaseInfo db = database(container.databaseRid());
            Throughput shared = db == null ? Throughput.NONE : db.throughput();
            if (shared.isProvisioned()) {
                partitions = limits.initialPartitions(shared.manualRus(), shared.autoscaleMaxRus());
                key = new SharedKey(db.databaseId(), index % partitions);
                total = maxRus(shared);
            } else {
                key = new RangeKey(container.containerId(), parts.get(index).id());
                partitions = parts.size();
                total = limits.defaultContainerRus();
            }
        }
        double rate = Math.min(total / partitions, limits.maxPhysicalPartitionRus());
        boolean burst = burstEnabled && !serverless && rate < limits.burstEligibleBelowRus();
        double bank = burst ? rate * limits.burstAccumulation().toMillis() / 1000.0 : 0;
        PartitionBudget b = budgets.computeIfAbsent(key, k -> new PartitionBudget());
        b.configure(rate, bank, Math.max(rate, limits.burstMaxRus()));
        return b;
    }

    /**
     * Autoscale's current level for a container: the RU/s it scaled to in the last full window — the busiest
     * partition's use times the partition count — between its floor (10% of the maximum) and its maximum. Manual
     * throughput returns the provisioned value; no own throughput returns 0.
     */
    public int currentThroughput(ContainerInfo container) {
        Throughput t = container.throughput();
        if (!t.isAutoscale()) {
            return t.manualRus();
        }
        long now = clock.millis();
        double busiest = 0;
        for (PhysicalPartition p : container.partitions().partitions()) {
            busiest = Math.max(busiest, budget(container, p.id()).usedLastWindow(now));
        }
        int max = t.autoscaleMaxRus();
        double level = busiest * container.partitions().partitions().size();
        return (int) Math.max(max / 10.0, Math.min(max, Math.ceil(level)));
    }

    /**
     * The normalized RU consumption of a container (capacity.md §2.12): the busiest partition's use in the last full
     * second over its RU/s, from 0 to 1 (above 1 while burst capacity or a debt lets it overdraw).
     */
    public double normalizedConsumption(ContainerInfo container) {
        long now = clock.millis();
        double max = 0;
        for (PhysicalPartition p : container.partitions().partitions()) {
            PartitionBudget b = budget(container, p.id());
            max = Math.max(max, b.usedLastWindow(now) / b.rate());
        }
        return max;
    }

    private static double maxRus(Throughput t) {
        return t.isAutoscale() ? t.autoscaleMaxRus() : t.manualRus();
    }

    private DatabaseInfo database(String rid) {
        try {
            return databaseByRid.apply(rid);
        } catch (ServiceException e) {
            return null;
        }
    }

    private static int indexOf(List<PhysicalPartition> parts, String rangeId) {
        if (rangeId != null) {
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i).id().equals(rangeId)) {
                    return i;
                }
            }
        }
        // a range that split meanwhile, or a request not scoped to one: the first partition answers for it
        return 0;
    }

    private record RangeKey(int containerId, String rangeId) {
    }

    private record SharedKey(int databaseId, int index) {
    }
}
