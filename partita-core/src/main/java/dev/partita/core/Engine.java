package dev.partita.core;

import dev.partita.core.error.ServiceException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.Catalog;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.CostModel;
import dev.partita.core.limits.Limits;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.changefeed.ChangeFeedReader;
import dev.partita.core.changefeed.ChangeFeedScope;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.changefeed.ChangeLogRetention;
import dev.partita.core.changefeed.ChangeRecord;
import dev.partita.core.item.ContainerState;
import dev.partita.core.item.Items;
import dev.partita.core.item.PatchCondition;
import dev.partita.core.item.StoredItem;
import dev.partita.core.partition.PhysicalPartition;
import dev.partita.core.partition.RangeBoundaries;
import dev.partita.core.query.QueryExecutor;
import dev.partita.core.query.QueryPage;
import dev.partita.core.query.QueryScope;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine of one emulated account: databases, containers and their items over one {@link Store}. Thread-safe; the
 * gateway and the JUnit extension call it directly.
 */
public final class Engine implements AutoCloseable {
    private static final int DELETE_CHUNK = 1024;

    private final Store store;
    private final Clock clock;
    private final Limits limits;
    private final Catalog catalog;
    private final PatchCondition patchCondition;
    private final QueryExecutor queries;
    private final ChangeFeedReader changeFeeds;
    private final Capacity capacity;
    /** Containers (by id) whose throughput increase still owes splits, with when they fall due (epoch millis). */
    private final Map<Integer, Long> pendingSplits = new ConcurrentHashMap<>();
    private volatile long nextSplitDue = Long.MAX_VALUE;
    private final Map<Integer, ContainerState> states = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService background;

    private Engine(Store store, Clock clock, Limits limits, PatchCondition patchCondition) {
        this.store = Objects.requireNonNull(store);
        this.clock = Objects.requireNonNull(clock);
        this.limits = Objects.requireNonNull(limits);
        this.patchCondition = Objects.requireNonNull(patchCondition);
        this.catalog = new Catalog(store, clock, limits);
        this.queries = new QueryExecutor(store, clock, limits);
        this.changeFeeds = new ChangeFeedReader(store, clock, limits);
        this.capacity = new Capacity(clock, limits, CostModel.DEFAULT, catalog::databaseByRid);
        // indexes left incomplete (by a crash during a rebuild, or by an older version) are rebuilt before use
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                items(c).reindexIfStale();
            }
        }
    }

    /** An engine over {@code store} that evaluates patch conditions with the query language; it owns the store. */
    public static Engine open(Store store, Clock clock, Limits limits) {
        return new Engine(store, clock, limits, new SqlPatchCondition(clock));
    }

    /** An engine with another patch-condition evaluator (tests); the engine owns the store and closes it. */
    public static Engine open(Store store, Clock clock, Limits limits, PatchCondition patchCondition) {
        return new Engine(store, clock, limits, patchCondition);
    }

    public Clock clock() {
        return clock;
    }

    public Limits limits() {
        return limits;
    }

    public Store store() {
        return store;
    }

    /** Request charges, per-partition budgets and their enforcement (429s). */
    public Capacity capacity() {
        return capacity;
    }

    // ---- databases

    public DatabaseInfo createDatabase(ObjectNode body, Throughput throughput) {
        checkNotServerless(throughput);
        return catalog.createDatabase(body, throughput);
    }

    public DatabaseInfo readDatabase(String id) {
        return catalog.database(id);
    }

    public DatabaseInfo databaseByRid(String rid) {
        return catalog.databaseByRid(rid);
    }

    public List<DatabaseInfo> listDatabases() {
        return catalog.databases();
    }

    /** Sets a database's shared throughput (offer replace on a database). */
    public DatabaseInfo setDatabaseThroughput(String id, Throughput throughput) {
        checkNotServerless(throughput);
        return catalog.setDatabaseThroughput(id, throughput);
    }

    public void deleteDatabase(String id) {
        for (ContainerInfo c : catalog.deleteDatabase(id)) {
            deleteData(c);
        }
    }

    // ---- containers

    /**
     * Creates a container; its physical partition count follows the documented rule for its throughput unless
     * {@code explicitPartitions} is positive.
     */
    public ContainerInfo createContainer(String databaseId, ObjectNode body, Throughput throughput,
            int explicitPartitions) {
        checkNotServerless(throughput);
        ContainerInfo created = catalog.createContainer(databaseId, body, throughput, explicitPartitions);
        capacity.started(created);
        return created;
    }

    public ContainerInfo readContainer(String databaseId, String id) {
        return catalog.container(databaseId, id);
    }

    public ContainerInfo containerByRid(String rid) {
        return catalog.containerByRid(rid);
    }

    public List<ContainerInfo> listContainers(String databaseId) {
        return catalog.containers(databaseId);
    }

    public ContainerInfo replaceContainer(String databaseId, String id, ObjectNode body) {
        ContainerInfo before = catalog.container(databaseId, id);
        ContainerState state = state(before);
        state.writeLock().lock();
        try {
            ContainerInfo after = catalog.replaceContainer(databaseId, id, body);
            if (!Objects.equals(before.defaultTtl(), after.defaultTtl())) {
                items(after).recomputeExpiry();
            }
            if (!Objects.equals(before.properties().get("indexingPolicy"), after.properties().get("indexingPolicy"))) {
                items(after).reindex();
            }
            return after;
        } finally {
            state.writeLock().unlock();
        }
    }

    /**
     * Sets a container's own throughput; it takes effect at once. Raising it beyond partitions x
     * {@link Limits#maxPhysicalPartitionRus()} splits partitions until there are enough (capacity.md §2.6), at once or
     * {@link Limits#throughputSplitDelay()} later; lowering it never merges.
     */
    public ContainerInfo setThroughput(ContainerInfo container, Throughput throughput) {
        checkNotServerless(throughput);
        ContainerInfo c = catalog.setThroughput(container, throughput);
        int rus = Math.max(throughput.manualRus(), throughput.autoscaleMaxRus());
        if (limits.partitionsForThroughput(rus) > c.partitions().partitions().size()) {
            long due = clock.millis() + limits.throughputSplitDelay().toMillis();
            if (limits.throughputSplitDelay().isZero()) {
                c = splitForThroughput(c);
            } else {
                pendingSplits.put(c.containerId(), due);
                nextSplitDue = Math.min(nextSplitDue, due);
            }
        }
        return c;
    }

    /** Whether a throughput increase on this container is still waiting for its splits. */
    public boolean throughputSplitPending(ContainerInfo container) {
        return pendingSplits.containsKey(container.containerId());
    }

    /** Runs the throughput splits that have fallen due (the engine's entry points call this; so do background tasks). */
    public void runDueSplits() {
        long now = clock.millis();
        if (now < nextSplitDue) {
            return;
        }
        synchronized (pendingSplits) {
            long next = Long.MAX_VALUE;
            for (Map.Entry<Integer, Long> e : List.copyOf(pendingSplits.entrySet())) {
                if (e.getValue() > now) {
                    next = Math.min(next, e.getValue());
                    continue;
                }
                pendingSplits.remove(e.getKey());
                ContainerInfo c = catalog.containerById(e.getKey());
                if (c != null) {
                    splitForThroughput(c);
                }
            }
            nextSplitDue = next;
        }
    }

    /** Splits the oldest-generation partitions, one child pair at a time, until the throughput fits. */
    private ContainerInfo splitForThroughput(ContainerInfo c) {
        Throughput t = c.throughput();
        int needed = limits.partitionsForThroughput(Math.max(t.manualRus(), t.autoscaleMaxRus()));
        while (c.partitions().partitions().size() < needed) {
            PhysicalPartition oldest = c.partitions().partitions().stream()
                    .min(java.util.Comparator.comparingInt(p -> p.parents().size())).orElseThrow();
            c = split(c, oldest.id());
        }
        return c;
    }

    /**
     * Splits every physical partition that holds more than {@link Limits#maxPhysicalPartitionBytes()} (50 GB) in two
     * at its median item, as the service does in the background (capacity.md §2.6). A partition that is one logical
     * partition cannot be split further. Background maintenance calls this; returns how many splits were made.
     */
    public int splitOversizedPartitions() {
        int splits = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo listed : catalog.containers(db.id())) {
                ContainerInfo c = listed;
                for (PhysicalPartition p : listed.partitions().partitions()) {
                    long[] usage = storage(c, p);
                    if (usage[0] > limits.maxPhysicalPartitionBytes() && usage[1] > 1) {
                        c = split(c, p.id());
                        splits++;
                    }
                }
            }
        }
        return splits;
    }

    /** The bytes stored in one physical partition (its logical partitions' sizes), and how many logical partitions. */
    private long[] storage(ContainerInfo c, PhysicalPartition p) {
        long total = 0;
        long count = 0;
        try (Cursor cur = store.scan(StoreKeys.partitionSize(c.containerId(), p.minInclusive()),
                StoreKeys.partitionSize(c.containerId(), p.maxExclusive()))) {
            while (cur.next()) {
                total += StoredItem.getLong(cur.value(), 0);
                count++;
            }
        }
        return new long[] {total, count};
    }

    private void checkNotServerless(Throughput throughput) {
        if (capacity.isServerless() && throughput.isProvisioned()) {
            throw ServiceException.badRequest("Setting offer throughput or autopilot on a serverless account is not"
                    + " supported; create the resource without throughput.");
        }
    }

    public void deleteContainer(String databaseId, String id) {
        deleteData(catalog.deleteContainer(databaseId, id));
    }

    // ---- items

    public Items items(String databaseId, String containerId) {
        return items(catalog.container(databaseId, containerId));
    }

    public Items items(ContainerInfo container) {
        runDueSplits();
        ContainerState state = state(container);
        return new Items(store, clock, limits, () -> {
            ContainerInfo now = catalog.current(container);
            if (now == null) {
                throw ServiceException.notFound("The container does not exist.");
            }
            return now;
        }, state, patchCondition);
    }

    // ---- queries

    /** Parses and validates a query (cached by text); errors are 400s. */
    public dev.partita.sql.SqlQuery parseQuery(String text) {
        return queries.parse(text);
    }

    /**
     * The query plan the SDK asks for before running a query (query-plans.md).
     *
     * @param supportedFeatures the client's {@code x-ms-cosmos-supported-query-features}, or null for the Java SDK's
     */
    public ObjectNode queryPlan(ContainerInfo container, String text, Map<String, JsonNode> params,
            java.util.Set<String> supportedFeatures) {
        return dev.partita.core.query.QueryPlans.plan(container, queries.parse(text), params, supportedFeatures);
    }

    /** One page of a query over one scope of the container; see {@link QueryExecutor}. */
    public QueryPage query(ContainerInfo container, QueryScope scope, String text, Map<String, JsonNode> params,
            String continuation, int maxItemCount) {
        runDueSplits();
        ContainerInfo c = catalog.current(container);
        if (c == null) {
            throw ServiceException.notFound("The container does not exist.");
        }
        return queries.execute(c, lsn(c), scope, text, params, continuation, maxItemCount);
    }

    // ---- change feed

    /**
     * One page of the container's change feed over a scope; see {@link ChangeFeedReader}. The page's etag is the
     * continuation ({@link ChangeFeedStart#after}); an empty page means nothing newer (the gateway's 304).
     */
    public ChangeFeedPage changeFeed(ContainerInfo container, ChangeFeedScope scope, ChangeFeedStart start,
            int maxItemCount, ChangeFeedMode mode) {
        ContainerInfo c = catalog.current(container);
        if (c == null) {
            throw ServiceException.notFound("The container does not exist.");
        }
        return changeFeeds.read(c, scope, start, maxItemCount, mode);
    }

    /** The container's current LSN (for session tokens on reads and feeds). */
    public long lsn(ContainerInfo container) {
        return state(container).lsn();
    }

    private ContainerState state(ContainerInfo c) {
        return states.computeIfAbsent(c.containerId(), id -> {
            byte[] v = store.get(StoreKeys.meta("lsn/" + id));
            return new ContainerState(v == null ? 0 : StoredItem.readLong(v));
        });
    }

    // ---- physical partitions

    /**
     * Splits one physical partition in two at the median EPK of its items (the middle of its key range when it has
     * too few distinct keys). Only metadata changes: the data is already ordered by EPK.
     */
    public ContainerInfo split(ContainerInfo container, String rangeId) {
        ContainerState state = state(container);
        state.writeLock().lock();
        try {
            ContainerInfo c = catalog.container(container.databaseId(), container.id());
            PhysicalPartition range = c.partitions().byId(rangeId);
            String point = medianEpk(c, range);
            if (point == null) {
                point = RangeBoundaries.midpoint(c.partitionKey(), range.minInclusive(), range.maxExclusive());
            }
            return catalog.split(c, rangeId, point);
        } finally {
            state.writeLock().unlock();
        }
    }

    /** The EPK of the middle item, if it lies strictly inside the range; else null. */
    private String medianEpk(ContainerInfo c, PhysicalPartition range) {
        byte[][] bounds = StoreKeys.itemRange(c.containerId(), range.minInclusive(), range.maxExclusive());
        List<String> epks = new ArrayList<>();
        try (Cursor cur = store.scan(bounds[0], bounds[1])) {
            while (cur.next()) {
                epks.add(StoreKeys.itemEpk(cur.key()));
            }
        }
        if (epks.isEmpty()) {
            return null;
        }
        String median = epks.get(epks.size() / 2);
        if (median.compareTo(range.minInclusive()) <= 0) {
            // the lower half is one logical partition: split just after it
            median = epks.stream().filter(e -> e.compareTo(range.minInclusive()) > 0).findFirst().orElse(null);
        }
        return median;
    }

    // ---- background work

    /** Removes expired items (TTL) and returns how many were purged. Driven by the injected clock. */
    public int sweepExpired() {
        long now = clock.millis() / 1000;
        int purged = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                byte[] from = StoreKeys.containerStart(StoreKeys.ttlSpace(), c.containerId());
                byte[] to = StoreKeys.ttl(c.containerId(), now + 1, "", "");
                List<String[]> due = new ArrayList<>();
                try (Cursor cur = store.scan(from, to)) {
                    while (cur.next()) {
                        due.add(new String[] {StoreKeys.ttlEpk(cur.key()), StoreKeys.ttlId(cur.key())});
                    }
                }
                Items items = items(c);
                for (String[] d : due) {
                    if (items.purgeIfExpired(d[0], d[1], now)) {
                        purged++;
                    }
                }
            }
        }
        return purged;
    }

    /**
     * Drops change-log records older than the container's all-versions retention window
     * ({@link ChangeLogRetention#of}), except each live item's latest version, which the latest-version change feed
     * serves "from the beginning" for the life of the container. The largest dropped LSN is kept as a mark, so an
     * all-versions read from an older continuation fails rather than missing changes. Returns how many records were
     * dropped.
     */
    public int pruneChangeLog() {
        int dropped = 0;
        for (DatabaseInfo db : catalog.databases()) {
            for (ContainerInfo c : catalog.containers(db.id())) {
                long cutoff = clock.millis() / 1000 - ChangeLogRetention.of(c, limits).toSeconds();
                WriteBatch batch = new WriteBatch();
                long floor = -1;
                try (Cursor cur = store.scan(StoreKeys.containerStart(StoreKeys.logSpace(), c.containerId()),
                        StoreKeys.containerEnd(StoreKeys.logSpace(), c.containerId()))) {
                    while (cur.next()) {
                        ChangeRecord.Header r = ChangeRecord.peek(cur.value());
                        if (r.ts() >= cutoff) {
                            break;
                        }
                        if (!isLatestVersion(c, r)) {
                            batch.delete(cur.key());
                            floor = r.lsn();
                            dropped++;
                        }
                    }
                }
                if (!batch.isEmpty()) {
                    // a record kept earlier as a latest version may be dropped later: the mark never goes down
                    byte[] mark = new byte[8];
                    StoredItem.putLong(mark, 0, Math.max(floor, ChangeLogRetention.floor(store, c.containerId())));
                    store.apply(batch.put(ChangeLogRetention.floorKey(c.containerId()), mark));
                }
            }
        }
        return dropped;
    }

    private boolean isLatestVersion(ContainerInfo c, ChangeRecord.Header r) {
        if (r.operation().isDelete()) {
            return false;
        }
        byte[] current = store.get(StoreKeys.item(c.containerId(), r.epk(), r.id()));
        return current != null && StoredItem.wrap(current).lsn() == r.lsn();
    }

    /** Starts the TTL sweeper and change-log pruning on a daemon thread, at the interval of {@link Limits#ttlSweepInterval()}. */
    public synchronized void startBackgroundTasks() {
        if (background != null) {
            return;
        }
        background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "partita-ttl-sweeper");
            t.setDaemon(true);
            return t;
        });
        long every = limits.ttlSweepInterval().toMillis();
        background.scheduleWithFixedDelay(() -> {
            try {
                sweepExpired();
                pruneChangeLog();
                runDueSplits();
                splitOversizedPartitions();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(Engine.class).warn("Background maintenance failed: {}",
                        e.toString());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    private void deleteData(ContainerInfo c) {
        states.remove(c.containerId());
        for (byte space : StoreKeys.dataSpaces()) {
            byte[] from = StoreKeys.containerStart(space, c.containerId());
            byte[] to = StoreKeys.containerEnd(space, c.containerId());
            WriteBatch batch = new WriteBatch();
            try (Cursor cur = store.scan(from, to)) {
                while (cur.next()) {
                    batch.delete(cur.key());
                    if (batch.size() >= DELETE_CHUNK) {
                        store.apply(batch);
                        batch = new WriteBatch();
                    }
                }
            }
            if (!batch.isEmpty()) {
                store.apply(batch);
            }
        }
        store.apply(new WriteBatch().delete(StoreKeys.meta("lsn/" + c.containerId()))
                .delete(ChangeLogRetention.floorKey(c.containerId())));
    }

    @Override
    public void close() {
        ScheduledExecutorService bg = background;
        if (bg != null) {
            bg.shutdownNow();
        }
        store.close();
    }
}
